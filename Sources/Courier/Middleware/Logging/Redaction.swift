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
    /// Query, form and JSON fields with exactly one of these names (ignoring case, `-` and `_`)
    /// have their values hidden: short names such as `key` or `pin` that would hide too much as
    /// fragments. A JSON member so named is hidden whole, objects included.
    public var fieldNames: Set<String>
    /// What replaces a hidden value.
    public static let placeholder = "<redacted>"

    /// The credential header fields of ``CredentialFields/default`` and `Set-Cookie`; fields
    /// named like token, password, secret, API or access key, private key, session, credential,
    /// signature or card number; and fields named exactly `key`, `sig`, `auth`, `pwd`, `pass`,
    /// `code`, `jwt`, `pin`, `otp`, `cvv`, `cvc`, `ssn` (after OWASP's logging cheat sheet and the
    /// defaults of the large client libraries).
    public static let `default` = Redaction(
        headerNames: CredentialFields.default.headerNames.union([.setCookie]),
        fieldNameFragments: [
            "token", "password", "passwd", "passphrase", "secret", "apikey", "accesskey", "privatekey", "session",
            "credential", "signature", "cardnumber", "authorization",
        ],
        fieldNames: ["key", "sig", "auth", "pwd", "pass", "code", "jwt", "pin", "otp", "cvv", "cvc", "ssn"]
    )

    /// Creates a redaction.
    /// - Parameters:
    ///   - headerNames: Header fields to hide.
    ///   - fieldNameFragments: Name fragments of fields to hide.
    ///   - fieldNames: Exact names of fields to hide.
    public init(headerNames: Set<HTTPField.Name>, fieldNameFragments: [String], fieldNames: Set<String> = []) {
        self.headerNames = headerNames
        self.fieldNameFragments = fieldNameFragments
        self.fieldNames = Set(fieldNames.map(Self.normalized))
    }

    /// This redaction, also hiding `credentials` (a client's ``Configuration/credentialFields``,
    /// with its authentication schemes' fields).
    /// - Parameter credentials: More fields to hide.
    /// - Returns: The wider redaction.
    public func hiding(_ credentials: CredentialFields) -> Redaction {
        var wider = self
        wider.headerNames.formUnion(credentials.headerNames)
        wider.fieldNames.formUnion(credentials.queryNames.map(Self.normalized))
        return wider
    }

    /// Whether a field with this name has its value hidden.
    /// - Parameter name: A query, form, JSON or header field name.
    /// - Returns: `true` when its value must not be logged.
    public func isSecret(fieldNamed name: String) -> Bool {
        let normalized = Self.normalized(name)
        return fieldNames.contains(normalized) || fieldNameFragments.contains { normalized.contains(Self.normalized($0)) }
    }

    private static func normalized(_ name: String) -> String {
        name.lowercased().filter { $0 != "_" && $0 != "-" }
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
