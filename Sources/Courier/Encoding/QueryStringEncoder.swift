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
        var output: [UInt8] = []
        append(parameters, for: destination, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the encoded parameters to `output`, each pair escaped straight into it: the
    /// request builder writes the whole request target into one buffer.
    /// - Parameters:
    ///   - parameters: The parameters, in their order.
    ///   - common: Parameters written after them, except those whose name `parameters` has (the
    ///     client's common query: the endpoint's own values win), without merging the two lists.
    ///   - destination: A query or a form body.
    ///   - output: The buffer to append to.
    func append(
        _ parameters: QueryParameters,
        then common: QueryParameters = QueryParameters(),
        for destination: Destination,
        to output: inout [UInt8]
    ) {
        var writer = PairWriter(spaceAsPlus: destination == .formBody, output: output, start: output.count)
        output = []
        for item in parameters.items {
            write(item.value, name: item.name, to: &writer)
        }
        for item in common.items where parameters.value(named: item.name) == nil {
            write(item.value, name: item.name, to: &writer)
        }
        output = writer.output
    }

    /// Writes `name=value` pairs, separated by `&`, into a byte buffer.
    private struct PairWriter {
        let spaceAsPlus: Bool
        var output: [UInt8]
        /// Where this encoding's first pair begins; anything before it belongs to the caller.
        let start: Int

        mutating func pair(name: String, values: some Sequence<String>) {
            if output.count > start { output.append(UInt8(ascii: "&")) }
            PercentEncoding.append(name, allowing: .unreserved, spaceAsPlus: spaceAsPlus, to: &output)
            output.append(UInt8(ascii: "="))
            var first = true
            for value in values {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                PercentEncoding.append(value, allowing: .unreserved, spaceAsPlus: spaceAsPlus, to: &output)
            }
        }
    }

    private func write(_ value: QueryValue, name: String, to writer: inout PairWriter) {
        switch value {
        case .absent:
            break
        case .text(let text):
            writer.pair(name: name, values: CollectionOfOne(text))
        case .bool(let flag):
            writer.pair(name: name, values: CollectionOfOne(flag ? boolEncoding.trueText : boolEncoding.falseText))
        case .dictionary(let members):
            for key in members.keys.sorted() {
                if let member = members[key] { write(member, name: "\(name)[\(key)]", to: &writer) }
            }
        case .list(let elements):
            switch arrayEncoding.style {
            case .brackets:
                for element in elements { write(element, name: "\(name)[]", to: &writer) }
            case .repeatedName:
                for element in elements { write(element, name: name, to: &writer) }
            case .indexed:
                for (index, element) in elements.enumerated() { write(element, name: "\(name)[\(index)]", to: &writer) }
            case .commaSeparated:
                // One pair: the leaves' values, each escaped on its own so the joining commas stay
                // the only separators.
                var values: [String] = []
                for element in elements { collectLeaves(of: element, into: &values) }
                if !values.isEmpty { writer.pair(name: name, values: values) }
            }
        }
    }

    /// The texts a comma-separated list writes for one element: nested lists and dictionaries
    /// contribute all their leaves, in order.
    private func collectLeaves(of value: QueryValue, into values: inout [String]) {
        switch value {
        case .absent:
            break
        case .text(let text):
            values.append(text)
        case .bool(let flag):
            values.append(flag ? boolEncoding.trueText : boolEncoding.falseText)
        case .dictionary(let members):
            for key in members.keys.sorted() {
                if let member = members[key] { collectLeaves(of: member, into: &values) }
            }
        case .list(let elements):
            for element in elements { collectLeaves(of: element, into: &values) }
        }
    }
}
