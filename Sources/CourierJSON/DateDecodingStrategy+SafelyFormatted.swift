import Foundation

extension JSONDecoder.DateDecodingStrategy {
    /// Reads dates with `formatter`, as `.formatted(formatter)` does, but refuses as not matching
    /// any text whose characters are not each one UTF-16 unit (a combining mark, an emoji).
    ///
    /// On Linux, swift-corelibs-foundation's `DateFormatter.date(from:)` stops the process
    /// ("Incorrect range") when its parse ends inside such a character, so a server that sends
    /// `"2024\u{0301}-05-01"` to an app using `.formatted` stops the app, with `JSONDecoder` as with
    /// ``UTF8JSONDecoder``. Date formats read digits and ASCII punctuation, so this refuses no date a
    /// server means to send. On Apple platforms it is `.formatted(formatter)` itself.
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
            // Every UTF-16 offset is a character boundary exactly when each character is one unit.
            guard text.utf16.count == text.count, let date = formatter.date(from: text) else {
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
