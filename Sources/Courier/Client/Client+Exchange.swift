import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// Sends a prepared request through the transport, reads the body up to the size limit, and
    /// decodes it. Timeouts and cancellation reach it as cancellation of the calling task.
    func exchange<Response>(
        _ prepared: PreparedRequest,
        decoding: ResponseDecoding<Response>,
        decoder: JSONDecoder,
        configuration: Configuration
    ) async throws -> Response {
        let (response, body) = try await transport.send(
            prepared.request,
            body: prepared.body.map { HTTPBody($0) },
            baseURL: prepared.origin,
            operationID: prepared.name
        )
        let data = try await Self.collect(body, upTo: configuration.maximumResponseBodySize)
        return try ResponseReader.read(
            response,
            body: data,
            decoding: decoding,
            decoder: decoder,
            errorFormat: configuration.errorFormat
        )
    }

    /// Reads a body into memory, refusing to go past `limit` bytes.
    static func collect(_ body: HTTPBody?, upTo limit: Int) async throws -> Data {
        guard let body else { return Data() }
        if case .known(let length) = body.length, length > limit {
            throw CourierError(
                .responseTooLarge,
                message: "The response body has \(length) bytes; the limit is \(limit)."
            )
        }
        var data = Data()
        if case .known(let length) = body.length { data.reserveCapacity(Int(length)) }
        for try await chunk in body {
            guard data.count + chunk.count <= limit else {
                throw CourierError(
                    .responseTooLarge,
                    message: "The response body is larger than the limit of \(limit) bytes."
                )
            }
            data.append(contentsOf: chunk)
        }
        return data
    }
}
