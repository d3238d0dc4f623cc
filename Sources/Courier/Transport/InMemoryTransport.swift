import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that reads a whole response body into memory itself, in fewer steps than the
/// `HTTPBody` sequence its `ClientTransport` conformance returns (AsyncHTTPClient: its own
/// `collect(upTo:)`, usually one buffer, with no asynchronous iteration per chunk).
///
/// ``Client/send(_:)`` takes this path when the call has no middleware (nothing else looks at the
/// body) and no progress handler; everything else goes through `send(_:body:baseURL:operationID:)`.
package protocol InMemoryTransport: ClientTransport {
    /// Sends the request and reads the response body, which may have at most `limit` bytes.
    /// - Returns: The response and its body; empty for `HEAD`.
    /// - Throws: ``CourierError``, of kind ``CourierError/Kind/responseTooLarge`` past `limit`.
    func sendInMemory(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        upTo limit: Int
    ) async throws -> (HTTPResponse, HTTPBody.ByteChunk)
}

extension CourierError {
    /// The error for a response whose body stopped early because of `error`: a connection that
    /// closed or reset after the head arrived left the response incomplete
    /// (``CourierError/Kind/invalidResponse``), the same on every transport; cancellation, a
    /// timeout or a size limit keep their kinds.
    package static func incompleteBody(after error: any Error) -> CourierError {
        let courierError = CourierError(error)
        guard [.notConnected, .transportFailed].contains(courierError.kind) else { return courierError }
        return CourierError(
            .invalidResponse,
            message: "The connection ended before the whole response body arrived.",
            underlyingError: error
        )
    }

    /// A response body announced (`Content-Length`) or found to be larger than `limit` bytes.
    package static func bodyTooLarge(length: Int64?, limit: Int) -> CourierError {
        guard let length else {
            return CourierError(.responseTooLarge, message: "The response body is larger than the limit of \(limit) bytes.")
        }
        return CourierError(.responseTooLarge, message: "The response body has \(length) bytes; the limit is \(limit).")
    }
}
