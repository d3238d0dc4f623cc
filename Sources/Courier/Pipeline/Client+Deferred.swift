import Foundation
import HTTPTypes

extension Client {
    /// The request `endpoint` describes, kept to be sent later with ``exchange(_:)``: encoded and
    /// checked now, without common query and header fields and without credentials.
    /// - Parameter endpoint: The call.
    /// - Returns: What the endpoint itself says.
    /// - Throws: ``CourierError`` of kind `invalidRequest` or `encodingFailed`, before any traffic.
    package func deferred<E: Endpoint>(_ endpoint: E) throws(CourierError) -> DeferredRequest {
        try RequestBuilder.deferred(endpoint.request, snapshot: snapshot)
    }

    /// Sends a deferred request through the one path every call takes (``perform``), with the
    /// common parameters and middleware of this moment (credentials added, a 401 refreshed by
    /// ``AuthenticationMiddleware``), and returns whatever status came back with its body.
    /// - Parameter deferred: The request.
    /// - Returns: The response and its body, read into memory up to the size limit.
    /// - Throws: ``CourierError`` when no response arrived (connection failures, timeouts,
    ///   cancellation) or the body was too large.
    package func exchange(_ deferred: DeferredRequest) async throws(CourierError) -> (response: HTTPResponse, body: Data) {
        let snapshot = self.snapshot
        let prepared = try RequestBuilder.prepare(deferred, snapshot: snapshot)
        let bodyLimit = snapshot.value.maximumResponseBodySize
        return try await perform(prepared, configuration: snapshot, delivery: .collected(upTo: bodyLimit), progress: nil) { result in
            (result.response, try await ResponseBody.data(of: result.body, upTo: bodyLimit))
        }
    }
}
