/// Writes ``QueryParameters`` as a URL query string or an `application/x-www-form-urlencoded` body.
///
/// Names and values are percent-escaped by RFC 3986: only `A–Z a–z 0–9 - . _ ~` stand as they
/// are, so `&`, `=`, `+`, `/`, `?`, `#`, `%`, spaces and any Unicode arrive intact. In a form body
/// a space is written `+`, as HTML forms do; in a query it is `%20`.
///
/// ```swift
/// let encoder = QueryStringEncoder(arrayEncoding: .repeatedName)
/// encoder.encode(["q": "tom & jerry", "ids": [1, 2]])   // "q=tom%20%26%20jerry&ids=1&ids=2"
/// ```
public struct QueryStringEncoder: Sendable, Hashable {
    /// How a list is written.
    public struct ArrayEncoding: Sendable, Hashable {
        enum Style: Hashable { case brackets, repeatedName, indexed, commaSeparated }
        let style: Style

        /// `ids[]=1&ids[]=2` (Rails, PHP, Alamofire's default).
        public static let brackets = ArrayEncoding(style: .brackets)
        /// `ids=1&ids=2` (most Go, Java and Python servers).
        public static let repeatedName = ArrayEncoding(style: .repeatedName)
        /// `ids[0]=1&ids[1]=2`.
        public static let indexed = ArrayEncoding(style: .indexed)
        /// `ids=1,2` (the comma escaped inside each element).
        public static let commaSeparated = ArrayEncoding(style: .commaSeparated)
    }

    /// How a Boolean is written.
    public struct BoolEncoding: Sendable, Hashable {
        let trueText: String
        let falseText: String

        /// `true` / `false`.
        public static let literal = BoolEncoding(trueText: "true", falseText: "false")
        /// `1` / `0`.
        public static let numeric = BoolEncoding(trueText: "1", falseText: "0")
    }

    /// Where the output goes, which decides how a space is written.
    public enum Destination: Sendable, Hashable {
        /// A URL query: space as `%20`.
        case query
        /// A form body: space as `+`.
        case formBody
    }

    /// How lists are written; `.repeatedName` by default.
    public var arrayEncoding: ArrayEncoding
    /// How Booleans are written; `.literal` by default.
    public var boolEncoding: BoolEncoding

    /// Creates an encoder.
    /// - Parameters:
    ///   - arrayEncoding: How lists are written.
    ///   - boolEncoding: How Booleans are written.
    public init(arrayEncoding: ArrayEncoding = .repeatedName, boolEncoding: BoolEncoding = .literal) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Encodes the parameters in their order; nested dictionary members in sorted key order.
    /// - Parameters:
    ///   - parameters: The parameters.
    ///   - destination: A query or a form body.
    /// - Returns: The encoded string without a leading `?`; empty when there is nothing to write.
    public func encode(_ parameters: QueryParameters, for destination: Destination = .query) -> String {
        var pairs: [Pair] = []
        for item in parameters.items {
            flatten(item.value, name: item.name, into: &pairs)
        }
        let spaceAsPlus = destination == .formBody
        return pairs.map { pair in
            PercentEncoding.escape(pair.name, allowing: .unreserved, spaceAsPlus: spaceAsPlus) + "="
                + pair.values.map { PercentEncoding.escape($0, allowing: .unreserved, spaceAsPlus: spaceAsPlus) }
                .joined(separator: ",")
        }.joined(separator: "&")
    }

    /// One `name=value` in the output; several values only for comma-separated lists, each escaped
    /// on its own so the joining commas stay the only separators.
    private struct Pair {
        var name: String
        var values: [String]
    }

    private func flatten(_ value: QueryValue, name: String, into pairs: inout [Pair]) {
        switch value {
        case .absent:
            break
        case .text(let text):
            pairs.append(Pair(name: name, values: [text]))
        case .bool(let flag):
            pairs.append(Pair(name: name, values: [flag ? boolEncoding.trueText : boolEncoding.falseText]))
        case .dictionary(let members):
            for key in members.keys.sorted() {
                if let member = members[key] { flatten(member, name: "\(name)[\(key)]", into: &pairs) }
            }
        case .list(let elements):
            switch arrayEncoding.style {
            case .brackets:
                for element in elements { flatten(element, name: "\(name)[]", into: &pairs) }
            case .repeatedName:
                for element in elements { flatten(element, name: name, into: &pairs) }
            case .indexed:
                for (index, element) in elements.enumerated() { flatten(element, name: "\(name)[\(index)]", into: &pairs) }
            case .commaSeparated:
                var parts: [Pair] = []
                for element in elements { flatten(element, name: name, into: &parts) }
                if !parts.isEmpty { pairs.append(Pair(name: name, values: parts.flatMap(\.values))) }
            }
        }
    }
}
