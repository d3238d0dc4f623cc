import HTTPTypes

/// The directives of `Cache-Control` fields (RFC 9111 §5.2), as a private cache reads them.
///
/// Every `Cache-Control` field line of a message is read, directives separated by commas, names
/// compared ignoring case, values as tokens or quoted strings. A number is RFC 9111's
/// `delta-seconds`: digits only, any number of them, and one past 2³¹ is 2³¹ (§1.2.2); a
/// directive with a value that is not one is ignored, never a trap. `s-maxage`, `proxy-revalidate`
/// and `public` are for shared caches and read as nothing here, except that `public` lets a
/// response with no other freshness information be given heuristic freshness.
package struct CacheControl: Sendable, Equatable {
    package var maxAge: Int?
    package var noCache = false
    package var noStore = false
    package var mustRevalidate = false
    package var isPublic = false
    package var isPrivate = false
    /// `max-stale`: `Int.max` when it has no value (any staleness is accepted).
    package var maxStale: Int?
    package var minFresh: Int?
    package var onlyIfCached = false
    package var staleWhileRevalidate: Int?
    package var staleIfError: Int?
    package var immutable = false

    /// The largest `delta-seconds` kept (RFC 9111 §1.2.2).
    package static let largestDelta = 2_147_483_648

    package init() {}

    /// `Pragma`, which HTTP/1.0 caches read (RFC 9111 §5.4).
    static let pragma = HTTPField.Name("Pragma")!

    /// The directives of every `Cache-Control` field in `fields`; a request's `Pragma: no-cache`
    /// counts as `no-cache` when it has no `Cache-Control` (RFC 9111 §5.4).
    package init(_ fields: HTTPFields) {
        self.init()
        let lines = fields[values: .cacheControl]
        for line in lines { read(line) }
        if lines.isEmpty, let pragma = fields[Self.pragma], pragma.lowercased().contains("no-cache") {
            noCache = true
        }
    }

    /// The directives of one field value.
    package init(parsing value: String) {
        self.init()
        read(value)
    }

    private mutating func read(_ value: String) {
        for directive in Self.directives(in: Substring(value)) {
            let delta = directive.value.flatMap(Self.deltaSeconds)
            switch directive.name {
            case "max-age": if let delta { maxAge = min(maxAge ?? .max, delta) }
            case "no-cache": noCache = true
            case "no-store": noStore = true
            case "must-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "max-stale": maxStale = directive.value == nil ? .max : delta ?? maxStale
            case "min-fresh": if let delta { minFresh = delta }
            case "only-if-cached": onlyIfCached = true
            case "stale-while-revalidate": if let delta { staleWhileRevalidate = delta }
            case "stale-if-error": if let delta { staleIfError = delta }
            case "immutable": immutable = true
            default: break
            }
        }
    }

    /// `delta-seconds`: one or more digits, saturating at ``largestDelta``.
    package static func deltaSeconds(_ text: Substring) -> Int? {
        guard ServerDelay.isDigits(text) else { return nil }
        var value = 0
        for digit in text.utf8 {
            value = value * 10 + Int(digit &- UInt8(ascii: "0"))
            if value >= largestDelta { return largestDelta }
        }
        return value
    }

    /// The directives of a field value: lowercased names, and values unquoted.
    package static func directives(in value: Substring) -> [(name: String, value: Substring?)] {
        var result: [(name: String, value: Substring?)] = []
        var rest = value[...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { break }
            let nameEnd = rest.firstIndex { $0 == "=" || $0 == "," } ?? rest.endIndex
            let name = rest[..<nameEnd].trimmingSpaces().lowercased()
            rest = rest[nameEnd...]
            var directiveValue: Substring?
            if rest.first == "=" {
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                if rest.first == "\"" {
                    let (quoted, after) = Self.quotedString(rest)
                    directiveValue = quoted
                    rest = after
                } else {
                    let end = rest.firstIndex(of: ",") ?? rest.endIndex
                    directiveValue = rest[..<end].trimmingSpaces()
                    rest = rest[end...]
                }
                // Anything between the value and the next comma is not part of the directive.
                rest = rest[(rest.firstIndex(of: ",") ?? rest.endIndex)...]
            }
            if !name.isEmpty { result.append((name, directiveValue)) }
        }
        return result
    }

    /// A quoted string starting at `text`'s opening quote: its content (escapes kept as the escaped
    /// character's pair, which no directive value this type reads contains) and what follows the
    /// closing quote. An unterminated string runs to the end.
    private static func quotedString(_ text: Substring) -> (Substring, Substring) {
        var index = text.index(after: text.startIndex)
        let start = index
        while index < text.endIndex {
            let character = text[index]
            if character == "\\" {
                index = text.index(after: index)
                if index < text.endIndex { index = text.index(after: index) }
                continue
            }
            if character == "\"" { return (text[start..<index], text[text.index(after: index)...]) }
            index = text.index(after: index)
        }
        return (text[start...], text[text.endIndex...])
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
