import Foundation

extension JSONDecoder.DateDecodingStrategy {
    /// Reads dates with `formatter`, as `.formatted(formatter)` does, but refuses as not matching
    /// any text the formatter could stop the process on.
    ///
    /// On Linux, swift-corelibs-foundation's `DateFormatter.date(from:)` stops the process
    /// ("Incorrect range") when its parse ends inside a character of several UTF-16 units (a
    /// combining mark, an emoji), and the ICU parser under it divides by zero on a fraction of about
    /// 35 digits or more. A server that sends `"2024\u{0301}-05-01"` or a long fraction to an app
    /// using `.formatted` stops the app, with `JSONDecoder` as with ``UTF8JSONDecoder``. This
    /// strategy refuses, as not matching, a text with such a character, a run of more than 18
    /// digits (in any script), or more than 256 characters: no date a server means to send. On Apple
    /// platforms it is `.formatted(formatter)` itself.
    ///
    /// ```swift
    /// decoder.dateDecodingStrategy = .safelyFormatted(formatter)
    /// ```
    /// - Parameter formatter: The formatter that reads each date; keep it unchanged while it is used.
    /// - Returns: The strategy.
    public static func safelyFormatted(_ formatter: DateFormatter) -> Self {
        #if canImport(Darwin)
        return .formatted(formatter)
        #else
        return .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard formatterCanRead(text), let date = formatter.date(from: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "Date string does not match format expected by formatter."
                )
            }
            return date
        }
        #endif
    }
}

#if !canImport(Darwin)
/// Whether Foundation's `DateFormatter` on Linux can read `text` without stopping the process.
private func formatterCanRead(_ text: String) -> Bool {
    // Every UTF-16 offset is a character boundary exactly when each character is one unit.
    guard text.utf16.count <= 256, text.utf16.count == text.count else { return false }
    var digitsInARow = 0
    for scalar in text.unicodeScalars {
        // ICU reads the decimal digits of every script as digits.
        digitsInARow = scalar.properties.numericType == .decimal ? digitsInARow + 1 : 0
        if digitsInARow > 18 { return false }
    }
    return true
}
#endif
