import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that can read a whole response body into memory itself, in fewer steps than the
/// `HTTPBody` sequence its `ClientTransport` conformance returns (AsyncHTTPClient: its own
/// `collect(upTo:)`, usually one buffer; URLSession on Linux: a task that stops at the limit).
///
/// The attempt uses it when the call wants the body in memory and reports no progress; everything
/// else goes through `send(_:body:baseURL:operationID:)`.
package protocol BodyCollectingTransport: ClientTransport {
    /// Sends the request and reads the response body, which may have at most `limit` bytes after
    /// content decoding.
    /// - Parameters:
    ///   - request: The request, its path below `baseURL`.
    ///   - body: The request body, if any.
    ///   - baseURL: Scheme, host and port.
    ///   - operationID: The call's name.
    ///   - limit: The most bytes the body may have.
    /// - Returns: The response and its body; empty for `HEAD`.
    /// - Throws: ``CourierError``, of kind ``CourierError/Kind/responseTooLarge`` past `limit`.
    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        collectingUpTo limit: Int
    ) async throws -> (HTTPResponse, HTTPBody.ByteChunk)
}
