import Foundation
import HTTPTypes

/// How a backend describes its errors in a response body, so that the server's own message reaches
/// the user.
///
/// Each client has one. Built-in formats cover the common shapes; write your own for anything else:
///
/// ```swift
/// let social = Client(backend: .social, environment: env) { $0.errorFormat = .message }   // {"message": "…"}
/// let movies = Client(backend: .movies, environment: env) { $0.errorFormat = .tmdb }      // {"status_message", "status_code"}
/// let legacy = ErrorBodyFormat.custom { body, response in
///     ServerErrorDetails(message: String(decoding: body, as: UTF8.self), code: nil)
/// }
/// ```
public struct ErrorBodyFormat: Sendable {
    let extract: @Sendable (_ body: Data, _ response: HTTPResponse) -> ServerErrorDetails?

    /// `{"message": "…"}`.
    public static let message = jsonKeys(message: ["message"], code: [])

    /// TheMovieDB's `{"status_message": "…", "status_code": 34}`.
    public static let tmdb = jsonKeys(message: ["status_message"], code: ["status_code"])

    /// The shapes most APIs use: `message`, `error` (a string or `{"message"}`),
    /// `error_description`, `detail`, `title`, `status_message`; codes from `code`, `status_code`
    /// or `error_code`; a short `text/plain` body is the message itself. The default.
    public static let standard = ErrorBodyFormat { body, response in
        if let details = parseJSON(
            body,
            messageKeys: ["message", "error", "error_description", "detail", "title", "status_message"],
            codeKeys: ["code", "status_code", "error_code"]
        ) {
            return details
        }
        guard response.headerFields[.contentType]?.lowercased().hasPrefix("text/plain") == true,
            body.count <= 500
        else { return nil }
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : ServerErrorDetails(message: text, code: nil)
    }

    /// A JSON object whose message (and optionally code) sit under the given keys; the first key
    /// present wins.
    /// - Parameters:
    ///   - message: Keys that may hold the message.
    ///   - code: Keys that may hold a numeric code.
    public static func jsonKeys(message: [String], code: [String] = []) -> ErrorBodyFormat {
        ErrorBodyFormat { body, _ in parseJSON(body, messageKeys: message, codeKeys: code) }
    }

    /// Your own parser.
    /// - Parameter extract: Returns what the body says, or `nil` when it says nothing usable.
    ///   Called only for non-2xx responses; must not throw or crash on any input.
    public static func custom(
        _ extract: @escaping @Sendable (_ body: Data, _ response: HTTPResponse) -> ServerErrorDetails?
    ) -> ErrorBodyFormat {
        ErrorBodyFormat(extract: extract)
    }

    private static func parseJSON(_ body: Data, messageKeys: [String], codeKeys: [String]) -> ServerErrorDetails? {
        guard !body.isEmpty, let object = try? JSONDecoder().decode(JSONValue.self, from: body),
            case .object = object
        else { return nil }
        let message = messageKeys.lazy.compactMap { key in
            object[key]?.stringValue ?? object[key]?["message"]?.stringValue
        }.first
        let code = codeKeys.lazy.compactMap { object[$0]?.intValue }.first
        guard message != nil || code != nil else { return nil }
        return ServerErrorDetails(message: message, code: code)
    }
}

/// What a server said about an error in its response body.
public struct ServerErrorDetails: Sendable, Hashable {
    /// The human-readable message.
    public var message: String?
    /// A machine-readable code.
    public var code: Int?

    /// Creates details.
    /// - Parameters:
    ///   - message: The human-readable message.
    ///   - code: A machine-readable code.
    public init(message: String?, code: Int?) {
        self.message = message
        self.code = code
    }
}
