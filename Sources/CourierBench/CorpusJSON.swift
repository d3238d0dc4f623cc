/// A JSON value the corpus generators build and write out, members in the order given and nulls
/// written (as the services behind the corpora write them; `JSONEncoder` drops nil members).
indirect enum CorpusJSON {
    case object([(String, CorpusJSON)])
    case array([CorpusJSON])
    case string(String)
    /// A number, already written.
    case number(String)
    case bool(Bool)
    case null

    static func int(_ value: Int) -> CorpusJSON { .number(String(value)) }
    static func optional(_ value: String?) -> CorpusJSON { value.map(CorpusJSON.string) ?? .null }

    /// The same value with every member's name turned from snake_case into camelCase, as
    /// `convertFromSnakeCase` turns it.
    func keysInCamelCase() -> CorpusJSON {
        switch self {
        case .object(let members):
            .object(members.map { name, value in (Self.camelCase(name), value.keysInCamelCase()) })
        case .array(let elements):
            .array(elements.map { $0.keysInCamelCase() })
        case .string, .number, .bool, .null:
            self
        }
    }

    private static func camelCase(_ name: String) -> String {
        let words = name.split(separator: "_")
        guard let first = words.first else { return name }
        return words.dropFirst().reduce(String(first)) { $0 + $1.prefix(1).uppercased() + $1.dropFirst() }
    }

    /// The text, indented by two spaces a level as the corpora are.
    func text() -> String {
        var output = ""
        write(to: &output, indent: 0)
        return output
    }

    private func write(to output: inout String, indent: Int) {
        let inner = String(repeating: "  ", count: indent + 1)
        switch self {
        case .object(let members) where members.isEmpty:
            output += "{}"
        case .object(let members):
            output += "{\n"
            for (offset, (name, value)) in members.enumerated() {
                output += inner
                Self.quote(name, to: &output)
                output += ": "
                value.write(to: &output, indent: indent + 1)
                output += offset == members.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "}"
        case .array(let elements) where elements.isEmpty:
            output += "[]"
        case .array(let elements):
            output += "[\n"
            for (offset, element) in elements.enumerated() {
                output += inner
                element.write(to: &output, indent: indent + 1)
                output += offset == elements.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: "  ", count: indent) + "]"
        case .string(let text):
            Self.quote(text, to: &output)
        case .number(let text):
            output += text
        case .bool(let value):
            output += value ? "true" : "false"
        case .null:
            output += "null"
        }
    }

    /// `text` as a JSON string; slashes escaped as Twitter's API escapes them.
    private static func quote(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "/": output += "\\/"
            case "\n": output += "\\n"
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
