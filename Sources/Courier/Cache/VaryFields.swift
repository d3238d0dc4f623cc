import Foundation
import HTTPTypes

/// The request fields a response's `Vary` names (RFC 9110 §12.5.5): what selects one of several
/// stored responses for the same URL.
package struct VaryFields: Sendable, Equatable {
    /// The names, in the order listed, each once.
    package var names: [HTTPField.Name]
    /// Whether `Vary: *` was among them: the response varies on something outside the request,
    /// and is never stored.
    package var isWildcard: Bool

    /// The names every `Vary` field in `fields` lists; names that are not valid field names are
    /// ignored.
    package init(_ fields: HTTPFields) {
        var names: [HTTPField.Name] = []
        var isWildcard = false
        for line in fields[values: .vary] {
            for item in line.split(separator: ",") {
                let name = item.trimmingCharacters(in: .whitespaces)
                if name == "*" {
                    isWildcard = true
                } else if let fieldName = HTTPField.Name(name), !names.contains(fieldName) {
                    names.append(fieldName)
                }
            }
        }
        self.names = names
        self.isWildcard = isWildcard
    }

    /// The values of `names` in `request` as it is sent, each normalized (lines joined with
    /// `", "`, spaces around commas dropped), to compare with a stored response's.
    ///
    /// `Accept-Encoding`, when the request does not set it itself, is what the transport adds:
    /// its `advertisedCodings`. A credential field's value is replaced by its hash, so that no
    /// credential is kept with a stored response.
    static func values(
        of names: [HTTPField.Name],
        in request: HTTPFields,
        credentialFields: CredentialFields,
        advertisedCodings: Set<ContentCoding>
    ) -> [String] {
        names.map { name in
            var value = request[values: name].joined(separator: ",")
                .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
            if name == .acceptEncoding && request[name] == nil {
                value = advertisedCodings.map(\.name).sorted().joined(separator: ", ")
            }
            if credentialFields.headerNames.contains(name) && !value.isEmpty {
                value = "#" + CacheKey.hash(value)
            }
            return value
        }
    }
}
