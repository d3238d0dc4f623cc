import Foundation

/// Reads `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
package enum RetryAfter {
    /// How long the server asks the client to wait, or `nil` when the field is missing or unreadable.
    ///
    /// The wait is bounded by ``ServerDelay/longest``, so `Retry-After: 10…0` with any number of
    /// digits is a very long wait (longer than any retry policy accepts), never an overflow.
    /// - Parameters:
    ///   - value: The field's value, e.g. `"120"` or `"Wed, 21 Oct 2026 07:28:00 GMT"`.
    ///   - now: The current wall-clock time, for dates.
    package static func delay(from value: String?, now: Date) -> Duration? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = ServerDelay.fromDigits(text[...]) { return seconds }
        guard let date = HTTPDate.parse(text) else { return nil }
        return ServerDelay.fromSeconds(date.timeIntervalSince(now))
    }
}
