import Foundation

/// The interop servers' configuration files: templates in `Tests/InteropTests/Servers` whose
/// `{{NAME}}` placeholders a launcher fills in for one run (its directory, ports, secrets).
public enum InteropTemplate {
    /// A placeholder was left unfilled, or a URL could not be made.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// Writes `template` with every `{{NAME}}` replaced by `values[NAME]` to `destination`.
    /// - Parameters:
    ///   - template: The file's name in `Tests/InteropTests/Servers`.
    ///   - values: The placeholders' values.
    ///   - destination: Where the configuration goes.
    /// - Throws: When the template cannot be read or written, or a placeholder has no value.
    public static func render(_ template: String, _ values: [String: String], to destination: URL) throws {
        var text = try String(contentsOf: InteropComponent.serversDirectory.appendingPathComponent(template), encoding: .utf8)
        for (name, value) in values {
            text = text.replacingOccurrences(of: "{{\(name)}}", with: value)
        }
        if let left = text.range(of: #"\{\{[A-Z_]+\}\}"#, options: .regularExpression) {
            throw Failure(description: "\(template) has a placeholder without a value: \(text[left])")
        }
        try text.write(to: destination, atomically: true, encoding: .utf8)
    }

    /// A URL from text a launcher built.
    /// - Parameter text: The URL's text.
    /// - Returns: The URL.
    /// - Throws: ``Failure`` when `text` is not a URL.
    public static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw Failure(description: "not a URL: \(text)") }
        return url
    }
}
