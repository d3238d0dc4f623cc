// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import OpenAPIRuntime

extension HTTPClientTransport {
    /// The largest request body read into one buffer to go through the delegate API.
    static let largestBufferedBody: Int64 = 8 * 1024 * 1024

    /// Whether `request` goes through AsyncHTTPClient's delegate API: its response body is wanted
    /// whole with nobody listening for progress, and its own body (if any) is in memory, can be
    /// read again, and has a known length of at most ``largestBufferedBody``; a file or a form
    /// with files is streamed from disk instead.
    static func collectsInMemory(_ request: TransportRequest) -> Bool {
        guard request.delivery.collectsAll, request.progress == nil else { return false }
        guard let payload = request.payload else { return true }
        guard payload.isInMemory || payload.segments == nil, payload.canBeSentAgain, let length = payload.length else { return false }
        return length <= largestBufferedBody
    }

    /// Sends a request whose response body is wanted whole through the delegate API, in the
    /// caller's task; once more on a new connection when a stale pooled one failed before any
    /// response.
    func collect(_ request: TransportRequest) async throws -> TransportResponse {
        var body: HTTPClient.Body?
        if let requestBody = request.body { body = .byteBuffer(try await Self.buffer(requestBody, of: request)) }
        let clientRequest = try HTTPClient.Request(
            url: Self.url(of: request.request, origin: request.origin),
            method: HTTPMethod(rawValue: request.request.method.rawValue),
            headers: Self.headers(of: request.request),
            body: body
        )
        let first = CollectingResponseDelegate(limit: request.delivery.limit, method: clientRequest.method, headTimeout: headTimeout(for: request))
        do {
            return try await collect(clientRequest, with: first, for: request, attempts: 1)
        } catch let error where !first.receivedHead && Self.mayRetry(request.request.method, after: error) {
            let second = CollectingResponseDelegate(limit: request.delivery.limit, method: clientRequest.method, headTimeout: headTimeout(for: request))
            return try await collect(clientRequest, with: second, for: request, attempts: 2)
        }
    }

    /// How long the transport waits for the response head once the request is sent: its own
    /// ``deadline``, or `nil` (no timer) when the client interrupts the exchange before that
    /// deadline could pass. A timer costs a scheduled task on the loop and its removal when the
    /// head arrives, for every request.
    /// - Parameter request: The request, with its interruption.
    /// - Returns: The wait, or `nil`.
    func headTimeout(for request: TransportRequest) -> TimeAmount? {
        guard let interrupted = request.interruption.deadline else { return deadline }
        let ownDeadline = ContinuousClock.now.advanced(by: .nanoseconds(deadline.nanoseconds))
        return interrupted <= ownDeadline ? nil : deadline
    }

    /// Reads a request body of known length into one buffer, stopping when the caller is
    /// cancelled or the exchange interrupted.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when the body is longer or shorter than the
    ///   length it declared, which AsyncHTTPClient's async API refuses too; `CancellationError`.
    private static func buffer(_ body: HTTPBody, of request: TransportRequest) async throws -> ByteBuffer {
        guard case .known(let length) = body.length else {
            throw CourierError(.invalidRequest, message: "A request body read into memory must declare its length.")
        }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(Int(length))
        for try await chunk in body {
            try Task.checkCancellation()
            if request.interruption.isInterrupted { throw CancellationError() }
            guard buffer.readableBytes + chunk.count <= length else { throw lengthMismatch(declared: length) }
            buffer.writeBytes(chunk)
        }
        guard buffer.readableBytes == length else { throw lengthMismatch(declared: length) }
        return buffer
    }

    private static func lengthMismatch(declared length: Int64) -> CourierError {
        CourierError(.invalidRequest, message: "The request body's length differs from the \(length) bytes it declared.")
    }

    /// One send of `clientRequest`: its `HTTPClient.Task` is cancelled by the request's
    /// interruption or the caller's cancellation, and the caller waits for its result with no
    /// task in between.
    private func collect(
        _ clientRequest: HTTPClient.Request,
        with delegate: CollectingResponseDelegate,
        for request: TransportRequest,
        attempts: Int
    ) async throws -> TransportResponse {
        let httpClient = client(for: request.origin)
        let stopwatch = ExchangeStopwatch()
        let response = try await eventLoopChoice.withLoop(for: httpClient) { placement in
            try await collect(clientRequest, with: delegate, through: httpClient, on: placement.preference, for: request)
        }
        let head = response.head
        eventLoopChoice.note(response.version)
        let timings = stopwatch.timings(sent: response.sent, firstByte: response.firstByte, end: .now)
        let method = request.request.method
        guard method != .head, method != .connect, response.body.readableBytes > 0 else {
            return TransportResponse(response: head, body: nil, attempts: attempts, httpVersion: response.version, timings: timings)
        }
        let bytes = response.body.withUnsafeReadableBytes { ArraySlice($0) }
        return TransportResponse(response: head, body: HTTPBody(bytes), attempts: attempts, httpVersion: response.version, timings: timings)
    }

    /// Runs `clientRequest` as an `HTTPClient.Task` and waits for its result.
    private func collect(
        _ clientRequest: HTTPClient.Request,
        with delegate: CollectingResponseDelegate,
        through httpClient: HTTPClient,
        on preference: HTTPClient.EventLoopPreference,
        for request: TransportRequest
    ) async throws -> CollectingResponseDelegate.Response {
        let task = httpClient.execute(
            request: clientRequest,
            delegate: delegate,
            eventLoop: preference,
            deadline: nil,
            logger: nil
        )
        do {
            return try await request.interruption.withHandler {
                try await withTaskCancellationHandler {
                    try await task.get()
                } onCancel: {
                    task.cancel()
                }
            } onInterrupt: {
                task.cancel()
            }
        } catch let error where delegate.receivedHead && !(error is CourierError) {
            throw CourierError.incompleteBody(after: AsyncHTTPClientErrorClassifier.courierError(for: error))
        }
    }
}
#endif
