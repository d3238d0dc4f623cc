import Foundation
import Hummingbird
import NIOCore

/// Records each request's ``RequestRecord`` as it arrives, in arrival order.
// @unchecked: `records` is only touched under `lock`.
final class RequestRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [RequestRecord] = []

    /// Every request so far, in arrival order.
    var all: [RequestRecord] {
        lock.withLock { records }
    }

    func record(_ record: RequestRecord) {
        lock.withLock { records.append(record) }
    }

    /// The middleware that records, outermost on a router.
    var middleware: Middleware { Middleware(recorder: self) }

    struct Middleware: RouterMiddleware {
        typealias Context = ReferenceRequestContext
        let recorder: RequestRecorder

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            // An HTTP/2 stream is a child channel of its connection's channel, which is itself
            // the listener's child; an HTTP/1.1 connection is the listener's child.
            let stream = context.channel
            let http2Connection = stream.parent.flatMap { $0.parent == nil ? nil : $0 }
            recorder.record(
                RequestRecord(
                    httpVersion: http2Connection == nil ? "HTTP/1.1" : "HTTP/2.0",
                    method: request.method.rawValue,
                    target: request.uri.description,
                    connection: ObjectIdentifier(http2Connection ?? stream)
                )
            )
            return try await next(request, context)
        }
    }
}
