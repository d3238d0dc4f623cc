import Foundation
import HTTPTypes

/// What logs must never show: the values of credential header fields, and of query, form and JSON
/// fields whose names look secret. Applied by ``LoggingMiddleware`` to every line it writes.
///
/// ```swift
/// var redaction = Redaction.default
/// redaction.headerNames.insert(.init("X-Session")!)
/// redaction.fieldNameFragments.append("pin")
/// ```
public struct Redaction: Sendable {
    /// Header fields whose values are hidden.
    public var headerNames: Set<HTTPField.Name>
    /// Query, form and JSON fields whose name contains one of these (ignoring case, `-` and `_`)
    /// have their values hidden.
    public var fieldNameFragments: [String]
    /// What replaces a hidden value.
    public static let placeholder = "<redacted>"

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and fields named like
    /// token, password, secret, API key, session or credential.
    public static let `default` = Redaction(
        headerNames: [.authorization, .proxyAuthorization, .cookie, .setCookie],
        fieldNameFragments: ["token", "password", "passwd", "secret", "apikey", "session", "credential", "signature"]
    )

    /// Creates a redaction.
    /// - Parameters:
    ///   - headerNames: Header fields to hide.
    ///   - fieldNameFragments: Name fragments of fields to hide.
    public init(headerNames: Set<HTTPField.Name>, fieldNameFragments: [String]) {
        self.headerNames = headerNames
        self.fieldNameFragments = fieldNameFragments
    }

    /// Whether a field with this name has its value hidden.
    public func isSecret(fieldNamed name: String) -> Bool {
        let normalized = name.lowercased().filter { $0 != "_" && $0 != "-" }
        return fieldNameFragments.contains { normalized.contains($0.lowercased().filter { $0 != "_" && $0 != "-" }) }
    }

    /// `fields` with secret values hidden.
    public func redact(_ fields: HTTPFields) -> HTTPFields {
        var redacted = HTTPFields()
        for field in fields {
            let hide = headerNames.contains(field.name) || isSecret(fieldNamed: field.name.rawName)
            redacted.append(HTTPField(name: field.name, value: hide ? Self.placeholder : field.value))
        }
        return redacted
    }

    /// A path with query (`/search?q=a&api_key=…`) with secret parameter values hidden.
    public func redact(target: String) -> String {
        guard let question = target.firstIndex(of: "?") else { return target }
        let query = target[target.index(after: question)...]
        return target[...question] + redact(formEncoded: String(query))
    }

    /// A form body (`a=1&password=…`) with secret values hidden.
    public func redact(formEncoded: String) -> String {
        formEncoded.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            guard parts.count == 2, isSecret(fieldNamed: name) else { return String(pair) }
            return parts[0] + "=" + Self.placeholder
        }.joined(separator: "&")
    }

    /// A body as log text, with secret fields hidden: JSON and form bodies field by field; other
    /// text as is; binary as a byte count.
    public func redact(body: Data, contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.contains("json"), let value = try? JSONDecoder().decode(JSONValue.self, from: body) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(redact(value)) { return String(decoding: data, as: UTF8.self) }
        }
        if type.contains("x-www-form-urlencoded") {
            return redact(formEncoded: String(decoding: body, as: UTF8.self))
        }
        if type.hasPrefix("text/"), let text = String(data: body, encoding: .utf8) {
            return text
        }
        return "<\(body.count) bytes>"
    }

    private func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var redacted: [String: JSONValue] = [:]
            for (name, member) in members {
                redacted[name] = isSecret(fieldNamed: name) ? .string(Self.placeholder) : redact(member)
            }
            return .object(redacted)
        case .array(let elements):
            return .array(elements.map(redact))
        default:
            return value
        }
    }
}
