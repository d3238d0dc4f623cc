// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import NIOCore
import HTTPTypes
import NIOHTTP1

/// Reads a response whole into memory, up to a limit, for a request sent through
/// AsyncHTTPClient's delegate API: the `HTTPClient.Task` it runs in can be cancelled from any
/// thread, so an ``ExchangeInterruption`` ends it without a Swift task of its own.
///
/// AsyncHTTPClient calls it on the request's event loop, one callback at a time; the lock only
/// makes that visible to the compiler.
final class CollectingResponseDelegate: HTTPClientResponseDelegate {
    /// The response, the version of HTTP that carried it, and when the request was sent, the head
    /// arrived and the body ended.
    typealias Response = (head: HTTPResponse, body: ByteBuffer, version: HTTPProtocolVersion, sent: ContinuousClock.Instant?, firstByte: ContinuousClock.Instant?)

    private struct State {
        var head: HTTPResponse?
        var version = HTTPProtocolVersion.unknown
        var sent: ContinuousClock.Instant?
        var firstByte: ContinuousClock.Instant?
        var body = ByteBuffer()
        /// The timer that fails the request when its response head is late.
        var headDeadline: Scheduled<Void>?
        /// Whether the request has ended (answered, failed or cancelled).
        var ended = false
    }

    /// The most bytes of the body, after decoding.
    private let limit: Int
    /// Whether the request is a `HEAD` or `CONNECT`, whose `Content-Length` announces no body.
    private let announcesNoBody: Bool
    /// How long the response head may take once the request head is sent; `nil` for no limit of
    /// the transport's own.
    private let headTimeout: TimeAmount?
    private let state = LockedState(State())

    init(limit: Int, method: HTTPMethod, headTimeout: TimeAmount?) {
        self.limit = limit
        self.announcesNoBody = method == .HEAD || method == .CONNECT
        self.headTimeout = headTimeout
    }

    /// Whether the response head has arrived: a failure after it leaves the body incomplete.
    var receivedHead: Bool {
        state.withLock { $0.head != nil }
    }

    /// Starts the wait for the response head. The timer is scheduled and cancelled on the
    /// task's event loop, where every callback runs: from another thread, scheduling it would
    /// take a lock and wake the loop.
    func didSendRequestHead(task: HTTPClient.Task<Response>, _ head: HTTPRequestHead) {
        guard let headTimeout else { return }
        let timer = task.eventLoop.scheduleTask(in: headTimeout) { [weak self] in
            guard let self, !self.receivedHead else { return }
            task.fail(reason: HTTPClientError.deadlineExceeded)
        }
        let keep = state.withLock { state -> Bool in
            guard !state.ended, state.head == nil else { return false }
            state.headDeadline = timer
            return true
        }
        if !keep { timer.cancel() }
    }

    func didSendRequest(task: HTTPClient.Task<Response>) {
        let now = ContinuousClock.now
        state.withLock { $0.sent = now }
    }

    func didReceiveError(task: HTTPClient.Task<Response>, _ error: any Error) {
        end()
    }

    /// Marks the request ended and stops the wait for its head.
    private func end() {
        state.withLock { state in
            state.ended = true
            defer { state.headDeadline = nil }
            return state.headDeadline
        }?.cancel()
    }

    /// Keeps the head and stops the wait for it. A refused head fails the request, and
    /// AsyncHTTPClient then calls ``didReceiveError(task:_:)``, which stops the wait.
    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let response = HTTPClientTransport.head(status: head.status, headers: head.headers)
        // Only a plain body's announced length is refused before it arrives, as over the async API.
        if !announcesNoBody, let announced = HTTPClientTransport.decodedLength(of: response), announced > limit {
            return task.eventLoop.makeFailedFuture(CourierError.bodyTooLarge(length: announced, limit: limit))
        }
        let now = ContinuousClock.now
        let version = HTTPProtocolVersion(major: head.version.major, minor: head.version.minor)
        state.withLock { state in
            state.head = response
            state.version = version
            state.firstByte = now
            defer { state.headDeadline = nil }
            return state.headDeadline
        }?.cancel()
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            guard state.body.readableBytes + buffer.readableBytes <= limit else { return false }
            if state.body.readableBytes == 0 {
                state.body = buffer
            } else {
                state.body.writeImmutableBuffer(buffer)
            }
            return true
        }
        guard fits else { return task.eventLoop.makeFailedFuture(CourierError.bodyTooLarge(length: nil, limit: limit)) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        end()
        let (head, body, version, sent, firstByte) = state.withLock { state in
            defer { state.body = ByteBuffer() }
            return (state.head, state.body, state.version, state.sent, state.firstByte)
        }
        guard let head else { throw CourierError(.invalidResponse, message: "The server sent no response head.") }
        return (head, body, version, sent, firstByte)
    }
}
#endif
