import Foundation
import HTTPTypes
import OpenAPIRuntime

extension TransportRequest {
    /// The request sent through `send`, a `ClientTransport`'s method or one like it, with both
    /// bodies reporting progress when someone listens, and the response body delivered as asked.
    ///
    /// What every transport does when it has no better way of its own.
    /// - Parameter send: Sends a request to an origin; the response body is not read yet.
    /// - Returns: The response, its body delivered.
    package func delivered(
        by send: (HTTPRequest, HTTPBody?, URL, String) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> TransportResponse {
        let (response, body) = try await send(
            request,
            self.body.map { ProgressReportingBody.wrap($0, direction: .upload, report: progress) },
            origin,
            name
        )
        let reported = body.map {
            ProgressReportingBody.wrap(
                $0,
                direction: .download,
                expectedLength: ContentLength.value(in: response.headerFields),
                report: progress
            )
        }
        return try await delivering(response, body: reported)
    }

    /// `body`, unread so far, delivered as asked: read into memory, written to the destination,
    /// or handed over.
    package func delivering(_ response: HTTPResponse, body: HTTPBody?) async throws -> TransportResponse {
        let successful = response.status.kind == .successful
        if successful, let destination = delivery.destination {
            try await ResponseBody.write(body, to: destination)
            return TransportResponse(response: response, body: nil)
        }
        if successful, delivery.streamsSuccess {
            return TransportResponse(response: response, body: body)
        }
        let bytes = try await ResponseBody.bytes(of: body, upTo: delivery.limit)
        return TransportResponse(response: response, body: bytes.isEmpty ? nil : HTTPBody(bytes))
    }
}
