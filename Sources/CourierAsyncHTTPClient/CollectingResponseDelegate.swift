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
    typealias Response = (head: HTTPResponse, body: ByteBuffer)

    private struct State {
        var head: HTTPResponse?
        var body = ByteBuffer()
    }

    /// The most bytes of the body, after decoding.
    private let limit: Int
    /// Whether the request is a `HEAD` or `CONNECT`, whose `Content-Length` announces no body.
    private let announcesNoBody: Bool
    private let state = LockedState(State())

    init(limit: Int, method: HTTPMethod) {
        self.limit = limit
        self.announcesNoBody = method == .HEAD || method == .CONNECT
    }

    /// Whether the response head has arrived: a failure after it leaves the body incomplete.
    var receivedHead: Bool {
        state.withLock { $0.head != nil }
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let response = HTTPClientTransport.head(status: head.status, headers: head.headers)
        // Only a plain body's announced length is refused before it arrives, as over the async API.
        if !announcesNoBody, let announced = HTTPClientTransport.decodedLength(of: response), announced > limit {
            return task.eventLoop.makeFailedFuture(CourierError.bodyTooLarge(length: announced, limit: limit))
        }
        state.withLock { $0.head = response }
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
        let (head, body) = state.withLock { state in
            defer { state.body = ByteBuffer() }
            return (state.head, state.body)
        }
        guard let head else { throw CourierError(.invalidResponse, message: "The server sent no response head.") }
        return (head, body)
    }
}
#endif
