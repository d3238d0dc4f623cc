import Foundation
import HTTPTypes

/// How a successful response's bytes become an endpoint's `Response`.
struct ResponseDecoding<Response: Sendable>: Sendable {
    /// `true` when the response must be a JSON body (content type checked, empty body refused).
    let expectsJSON: Bool
    let decode: @Sendable (_ body: Data, _ response: HTTPResponse, _ decoder: ResponseJSONDecoder) throws -> Response

    func map<T: Sendable>(_ transform: @escaping @Sendable (Response) throws -> T) -> ResponseDecoding<T> {
        ResponseDecoding<T>(expectsJSON: expectsJSON) { body, response, decoder in
            try transform(decode(body, response, decoder))
        }
    }
}

extension ResponseDecoding where Response: Decodable {
    /// A JSON body decoded with the client's (or the endpoint's) decoder.
    static var json: ResponseDecoding {
        ResponseDecoding(expectsJSON: true) { body, _, decoder in try decoder.decode(Response.self, from: body) }
    }
}

extension ResponseDecoding where Response == Void {
    /// Success is all that matters; any body is ignored.
    static var ignoringBody: ResponseDecoding {
        ResponseDecoding(expectsJSON: false) { _, _, _ in () }
    }
}

extension ResponseDecoding where Response == Data {
    /// The body's bytes as they arrived.
    static var rawBody: ResponseDecoding {
        ResponseDecoding(expectsJSON: false) { body, _, _ in body }
    }
}
