import Foundation
import HTTPTypes

/// Checks a response's status and turns its body into the endpoint's `Response`, or into a
/// ``CourierError`` that says what the server meant. Pure: no I/O.
enum ResponseReader {
    /// How much of an error body is kept on the error for diagnostics.
    static let keptErrorBodySize = 64 * 1024

    static func read<Response>(
        _ response: HTTPResponse,
        body: Data,
        decoding: ResponseDecoding<Response>,
        decoder: ResponseJSONDecoder,
        errorFormat: ErrorBodyFormat,
        url: URL? = nil
    ) throws(CourierError) -> Response {
        guard response.status.kind == .successful else {
            throw error(for: response, body: body, errorFormat: errorFormat, url: url)
        }
        do {
            return try decodeSuccess(body, response: response, decoding: decoding, decoder: decoder)
        } catch {
            var failure = error
            failure.status = response.status
            failure.responseHeaderFields = response.headerFields
            throw failure
        }
    }

    /// Decodes a 2xx body; the caller attaches the response's status and header fields to any error.
    private static func decodeSuccess<Response>(
        _ body: Data,
        response: HTTPResponse,
        decoding: ResponseDecoding<Response>,
        decoder: ResponseJSONDecoder
    ) throws(CourierError) -> Response {
        if decoding.expectsJSON {
            if body.isEmpty {
                throw CourierError(
                    .decodingFailed,
                    message: "The server sent an empty body (status \(response.status.code)) where JSON was expected."
                )
            }
            if let contentType = response.headerFields.value(of: .contentType), !isJSON(contentType) {
                var error = CourierError(.invalidResponse, message: "The server sent \"\(contentType)\" where JSON was expected.")
                error.responseBody = body.prefix(keptErrorBodySize)
                throw error
            }
        }
        do {
            return try decoding.decode(body, response, decoder)
        } catch {
            throw decodingFailure(error)
        }
    }

    /// The error for a non-2xx response, with the server's message when its body has one.
    ///
    /// From an https `url`, a refusal of the client's certificate made after the TLS handshake
    /// (``clientCertificateRefusal(_:body:)``) is ``CourierError/Kind/clientCertificateRefused``
    /// with its reason, as a refusal inside the handshake is; over plain http there is no
    /// certificate to refuse, and the status keeps its kind.
    static func error(for response: HTTPResponse, body: Data, errorFormat: ErrorBodyFormat, url: URL? = nil) -> CourierError {
        let details = errorFormat.extract(body, response)
        var error = CourierError(CourierError.Kind.forStatus(response.status), message: details?.message)
        if url?.scheme?.lowercased() == "https", let reason = clientCertificateRefusal(response, body: body) {
            error.kind = .clientCertificateRefused
            error.message = reason
        }
        error.serverCode = details?.code
        error.status = response.status
        error.responseHeaderFields = response.headerFields
        error.responseBody = body.isEmpty ? nil : body.prefix(keptErrorBodySize)
        return error
    }

    /// `application/json`, `text/json` and any `…+json` media type, parameters ignored.
    static func isJSON(_ contentType: String) -> Bool {
        // Byte by byte and case-insensitively: no strings are made to answer.
        let utf8 = contentType.utf8
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = utf8.startIndex
        var end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
        while start < end, isSpace(utf8[start]) { utf8.formIndex(after: &start) }
        while end > start, isSpace(utf8[utf8.index(before: end)]) { utf8.formIndex(before: &end) }
        let mediaType = utf8[start..<end].lazy.map(asciiLowercase)
        return mediaType.elementsEqual("application/json".utf8)
            || mediaType.elementsEqual("text/json".utf8)
            || (mediaType.count > 5 && mediaType.suffix(5).elementsEqual("+json".utf8))
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// A decoding failure naming the key path and what was wrong there.
    static func decodingFailure(_ error: any Error) -> CourierError {
        guard let decodingError = error as? DecodingError else {
            return CourierError(.decodingFailed, message: error.localizedDescription, underlyingError: error)
        }
        let path: [any CodingKey]
        let message: String
        switch decodingError {
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            message = "The key \"\(key.stringValue)\" is missing."
        case .valueNotFound(let type, let context):
            path = context.codingPath
            message = "Expected \(type) but found null."
        case .typeMismatch(let type, let context):
            path = context.codingPath
            message = "Expected \(type): \(context.debugDescription)"
        case .dataCorrupted(let context):
            path = context.codingPath
            message = path.isEmpty ? "The response is not valid JSON." : context.debugDescription
        @unknown default:
            path = []
            message = String(describing: decodingError)
        }
        var failure = CourierError(.decodingFailed, message: message, underlyingError: decodingError)
        failure.codingPath = path.isEmpty ? nil : codingPathDescription(path)
        return failure
    }

    /// `results[3].poster_path` for the keys `results`, 3, `poster_path`.
    static func codingPathDescription(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}
