import Courier
import Foundation

/// Which requests a stub answers, and what an assertion expects of a recorded request: a method,
/// a path or path template, query items, header fields and a body, each optional.
///
/// A path without a leading `/` matches the end of the request's path, whatever the base path
/// (`"movie/popular"` matches `/3/movie/popular`); with one, the whole path. `{}`, `{name}` or `*`
/// match any one segment:
///
/// ```swift
/// stub.answer(.get("movie/{id}/videos"), with: .json(videos))
/// stub.answer(.post("authenticate").jsonBody(["email": "a@example.com", "password": "secret"]), with: .json(session))
/// stub.answer(.get("search").query("q", "tom").header(.authorization, "JWT a"), with: .json(results))
/// ```
public struct RequestMatcher: Sendable, CustomStringConvertible {
    private struct BodyCheck: Sendable {
        var description: String
        var expectedJSON: JSONValue?
        var test: @Sendable (Data) -> Bool
    }

    /// The method, or `nil` for any.
    public var method: HTTPRequest.Method?
    /// The path or path template, or `nil` for any.
    public var path: String?
    private var query: [(name: String, value: String?)] = []
    private var fields: [(name: HTTPField.Name, value: String?)] = []
    private var bodyCheck: BodyCheck?

    /// Creates a matcher.
    /// - Parameters:
    ///   - method: The method, or `nil` for any.
    ///   - path: The path or path template, or `nil` for any.
    public init(_ method: HTTPRequest.Method? = nil, _ path: String? = nil) {
        self.method = method
        self.path = path
    }

    /// Every request.
    public static var any: RequestMatcher { RequestMatcher() }

    /// `GET` requests to `path`.
    /// - Parameter path: A path or path template.
    /// - Returns: The matcher.
    public static func get(_ path: String) -> RequestMatcher { RequestMatcher(.get, path) }

    /// `POST` requests to `path`.
    /// - Parameter path: A path or path template.
    /// - Returns: The matcher.
    public static func post(_ path: String) -> RequestMatcher { RequestMatcher(.post, path) }

    /// `PUT` requests to `path`.
    /// - Parameter path: A path or path template.
    /// - Returns: The matcher.
    public static func put(_ path: String) -> RequestMatcher { RequestMatcher(.put, path) }

    /// `PATCH` requests to `path`.
    /// - Parameter path: A path or path template.
    /// - Returns: The matcher.
    public static func patch(_ path: String) -> RequestMatcher { RequestMatcher(.patch, path) }

    /// `DELETE` requests to `path`.
    /// - Parameter path: A path or path template.
    /// - Returns: The matcher.
    public static func delete(_ path: String) -> RequestMatcher { RequestMatcher(.delete, path) }

    /// Requests to `path` with any method.
    /// - Parameter path: A path or path template.
    /// - Returns: The matcher.
    public static func path(_ path: String) -> RequestMatcher { RequestMatcher(nil, path) }

    /// This matcher, also requiring a query item.
    /// - Parameters:
    ///   - name: The item's name.
    ///   - value: Its value; `nil` requires only that the item is there.
    /// - Returns: The narrower matcher.
    public func query(_ name: String, _ value: String? = nil) -> RequestMatcher {
        var copy = self
        copy.query.append((name, value))
        return copy
    }

    /// This matcher, also requiring a header field.
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: Its value; `nil` requires only that the field is there.
    /// - Returns: The narrower matcher.
    public func header(_ name: HTTPField.Name, _ value: String? = nil) -> RequestMatcher {
        var copy = self
        copy.fields.append((name, value))
        return copy
    }

    /// This matcher, also requiring the body to pass `predicate`.
    /// - Parameters:
    ///   - description: What the predicate checks, for messages.
    ///   - predicate: Receives the body's bytes (empty when there is none).
    /// - Returns: The narrower matcher.
    public func body(_ description: String = "the body predicate", _ predicate: @escaping @Sendable (Data) -> Bool) -> RequestMatcher {
        var copy = self
        copy.bodyCheck = BodyCheck(description: description, expectedJSON: nil, test: predicate)
        return copy
    }

    /// This matcher, also requiring a JSON body equal to `expected` (member order aside).
    /// - Parameter expected: The JSON the body must hold.
    /// - Returns: The narrower matcher.
    public func jsonBody(_ expected: JSONValue) -> RequestMatcher {
        var copy = self
        copy.bodyCheck = BodyCheck(description: "the JSON body \(Self.text(of: expected))", expectedJSON: expected) { data in
            (try? JSONDecoder().decode(JSONValue.self, from: data)) == expected
        }
        return copy
    }

    /// This matcher, also requiring a JSON body equal to `value` encoded by `encoder`.
    /// - Parameters:
    ///   - value: What the body must encode.
    ///   - encoder: The encoder the client uses; a plain `JSONEncoder` by default.
    /// - Returns: The narrower matcher; one that matches nothing when `value` does not encode.
    public func jsonBody(_ value: some Encodable & Sendable, encoder: JSONEncoder = JSONEncoder()) -> RequestMatcher {
        guard let data = try? encoder.encode(value), let json = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            return body("a body encoding \(type(of: value)), which does not encode") { _ in false }
        }
        return jsonBody(json)
    }

    /// Whether `request` is one this matcher describes.
    /// - Parameter request: A recorded request.
    /// - Returns: `true` when every part matches.
    public func matches(_ request: RecordedRequest) -> Bool {
        differences(from: request, redaction: .default).isEmpty
    }

    /// What differs between this matcher and `request`, a line per part, credentials redacted.
    func differences(from request: RecordedRequest, redaction: Redaction) -> [String] {
        var lines: [String] = []
        if let method, method != request.method {
            lines.append("method: expected \(method), got \(request.method)")
        }
        if let path, !PathTemplate(path).matches(request.path) {
            lines.append("path: expected \(path), got \(request.path)")
        }
        let items = request.queryItems
        for (name, value) in query {
            let actual = items.first { $0.name == name }
            let secret = redaction.isSecret(fieldNamed: name)
            if actual == nil {
                lines.append("query \(name): expected \(Self.quoted(value, secret: secret)), got none")
            } else if let value, actual?.value != value {
                lines.append("query \(name): expected \(Self.quoted(value, secret: secret)), got \(Self.quoted(actual?.value, secret: secret))")
            }
        }
        for (name, value) in fields {
            let actual = request.headerFields[name]
            let secret = redaction.headerNames.contains(name) || redaction.isSecret(fieldNamed: name.rawName)
            if actual == nil {
                lines.append("header \(name): expected \(Self.quoted(value, secret: secret)), got none")
            } else if let value, actual != value {
                lines.append("header \(name): expected \(Self.quoted(value, secret: secret)), got \(Self.quoted(actual, secret: secret))")
            }
        }
        if let bodyCheck, !bodyCheck.test(request.body ?? Data()) {
            let actual = request.body.map { redaction.redact(body: $0, contentType: request.headerFields[.contentType]) } ?? "no body"
            let expected = bodyCheck.expectedJSON.map { redactedText(of: $0, redaction: redaction) } ?? bodyCheck.description
            lines.append("body: expected \(expected), got \(actual)")
        }
        return lines
    }

    /// Method, path and the other parts: how unmatched-request messages list registrations.
    public var description: String {
        var parts = [method?.rawValue ?? "any method", path ?? "any path"]
        parts += query.map { "query \($0.name)=\($0.value ?? "*")" }
        let redaction = Redaction.default
        parts += fields.map { field in
            let secret = redaction.headerNames.contains(field.name) || redaction.isSecret(fieldNamed: field.name.rawName)
            return "header \(field.name): \(Self.quoted(field.value, secret: secret))"
        }
        if let bodyCheck { parts.append(bodyCheck.expectedJSON.map { redactedText(of: $0, redaction: redaction) } ?? bodyCheck.description) }
        return parts.joined(separator: " ")
    }

    private func redactedText(of json: JSONValue, redaction: Redaction) -> String {
        guard let data = try? JSONEncoder().encode(json) else { return "a JSON body" }
        return redaction.redact(body: data, contentType: "application/json")
    }

    private static func quoted(_ value: String?, secret: Bool) -> String {
        guard let value else { return "any value" }
        return secret ? Redaction.placeholder : "\"\(value)\""
    }

    private static func text(of json: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(json)).map { String(decoding: $0, as: UTF8.self) } ?? "JSON"
    }
}
