import Courier
import Foundation

/// A request as a ``StubTransport`` or ``HARRecorder`` received it: after every middleware, as the
/// network would have seen it.
///
/// Printing one hides credentials: the values of credential header fields and query parameters,
/// and secret-looking members of JSON and form bodies.
///
/// ```swift
/// let login = try #require(stub.requests.first)
/// #expect(login.method == .post)
/// #expect(try login.decodedBody(as: Credentials.self).email == "a@example.com")
/// ```
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// The method.
    public let method: HTTPRequest.Method
    /// The full URL: origin, path and query.
    public let url: URL
    /// The header fields, as sent.
    public let headerFields: HTTPFields
    /// The body's bytes; `nil` without a body.
    public let body: Data?
    /// The call's name: its method and path template (`"GET movie/{}/videos"`) unless the
    /// endpoint named itself.
    public let name: String
    /// The request target: the path with its query, percent-encoded as sent.
    public let target: String

    /// Creates a recorded request.
    /// - Parameters:
    ///   - method: The method.
    ///   - origin: Scheme, host and port.
    ///   - target: The path with its query, as sent.
    ///   - headerFields: The header fields.
    ///   - body: The body's bytes.
    ///   - name: The call's name.
    public init(method: HTTPRequest.Method, origin: URL, target: String, headerFields: HTTPFields, body: Data?, name: String) {
        self.method = method
        var base = origin.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        self.url = URL(string: base + target) ?? origin
        self.target = target
        self.headerFields = headerFields
        self.body = body
        self.name = name
    }

    /// The path without the query, percent-encoded as sent.
    public var path: String {
        target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target
    }

    /// The query items, decoded, in order.
    public var queryItems: [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// The first value of a query item.
    /// - Parameter name: The item's name.
    /// - Returns: Its value, or `nil` when there is no such item.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body decoded from JSON.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; a plain `JSONDecoder` by default.
    /// - Returns: The decoded body.
    /// - Throws: `DecodingError` when the body does not decode; an error when there is no body.
    public func decodedBody<T: Decodable>(as type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        guard let body else { throw CourierError(.invalidRequest, message: "\(method) \(path) has no body.") }
        return try decoder.decode(type, from: body)
    }

    /// The body as JSON; `nil` without a body or when it is not JSON.
    public var jsonBody: JSONValue? {
        body.flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
    }

    /// Method, URL, header fields and body, with credentials hidden.
    public var description: String {
        redactedDescription(.standard)
    }

    /// The request as text with what `redaction` says hidden.
    func redactedDescription(_ redaction: Redaction) -> String {
        var origin = url.absoluteString
        if let range = origin.range(of: target, options: .backwards) { origin.removeSubrange(range) }
        var lines = ["\(method) \(origin)\(redaction.redact(target: target))"]
        lines += redaction.redact(headerFields).map { "\($0.name): \($0.value)" }
        if let body, !body.isEmpty {
            lines.append("")
            lines.append(redaction.redact(body: body, contentType: headerFields[.contentType]))
        }
        return lines.joined(separator: "\n")
    }
}

extension Redaction {
    /// What the kit hides in everything it prints and records: ``Redaction/default`` and the
    /// credential query parameters of ``CredentialFields/default``.
    static let standard = Redaction.default.hiding(.default)
}
