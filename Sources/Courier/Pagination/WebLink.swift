import HTTPTypes

/// One link of a `Link` header field (RFC 8288 §3): its target as written and its parameters.
struct WebLink: Sendable, Equatable {
    /// The URI reference between `<` and `>`, as written (resolve it against the response's URL).
    var target: String
    /// The `rel` parameter's relation types, lowercased (`rel="next last"` is both).
    var relations: [String]
    /// The other parameters, their names lowercased; the first of a repeated name wins.
    var parameters: [String: String]

    /// The longest field value read; a longer one is read up to there.
    static let longestField = 64 * 1024
    /// The most links read from one field.
    static let mostLinks = 256

    /// The links in a `Link` field value, as RFC 8288 Appendix B.2 reads them; a link that does
    /// not parse is skipped up to the next comma, never an error.
    static func links(in value: String) -> [WebLink] {
        var reader = Reader(Array(value.utf8.prefix(longestField)))
        var links: [WebLink] = []
        while links.count < mostLinks {
            reader.skip { $0 == UInt8(ascii: ",") || Reader.isSpace($0) }
            guard !reader.isAtEnd else { break }
            if let link = reader.link() { links.append(link) }
            // Whatever is left of a broken link, up to the next one.
            reader.skip { $0 != UInt8(ascii: ",") }
        }
        return links
    }

    /// Reads a field value byte by byte.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index >= bytes.count }

        static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

        mutating func skip(while condition: (UInt8) -> Bool) {
            while index < bytes.count, condition(bytes[index]) { index += 1 }
        }

        mutating func link() -> WebLink? {
            guard bytes[index] == UInt8(ascii: "<") else { return nil }
            index += 1
            let start = index
            skip { $0 != UInt8(ascii: ">") }
            guard !isAtEnd else { return nil }
            let target = String(decoding: bytes[start..<index], as: UTF8.self)
            index += 1
            var link = WebLink(target: target, relations: [], parameters: [:])
            var sawRelation = false
            while true {
                skip(while: Self.isSpace)
                guard !isAtEnd, bytes[index] == UInt8(ascii: ";") else { break }
                index += 1
                skip(while: Self.isSpace)
                guard let (name, value) = parameter() else { continue }
                if name == "rel" {
                    // RFC 8288 §3.3: only the first `rel` counts.
                    guard !sawRelation else { continue }
                    sawRelation = true
                    link.relations = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                } else if link.parameters[name] == nil {
                    link.parameters[name] = value
                }
            }
            return link
        }

        /// `name`, `name=token` or `name="quoted \"string\""`.
        mutating func parameter() -> (String, String)? {
            let start = index
            skip { !Self.isSpace($0) && $0 != UInt8(ascii: "=") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
            guard index > start else { return nil }
            let name = String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
            skip(while: Self.isSpace)
            guard !isAtEnd, bytes[index] == UInt8(ascii: "=") else { return (name, "") }
            index += 1
            skip(while: Self.isSpace)
            guard !isAtEnd else { return (name, "") }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                var value: [UInt8] = []
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
                if !isAtEnd { index += 1 }
                return (name, String(decoding: value, as: UTF8.self))
            }
            let valueStart = index
            skip { !Self.isSpace($0) && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
            return (name, String(decoding: bytes[valueStart..<index], as: UTF8.self))
        }
    }
}

extension HTTPField.Name {
    /// `Link` (RFC 8288): links to related resources, such as the next page.
    public static var link: Self { Self("Link")! }
}
