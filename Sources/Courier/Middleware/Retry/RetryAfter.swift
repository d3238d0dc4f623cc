import Foundation
import HTTPTypes

/// Reads `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// How long the server asks the client to wait, or `nil` when the field is missing or unreadable.
    /// - Parameters:
    ///   - value: The field's value, e.g. `"120"` or `"Wed, 21 Oct 2026 07:28:00 GMT"`.
    ///   - now: The current wall-clock time, for dates.
    static func delay(from value: String?, now: Date) -> Duration? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.allSatisfy(\.isASCIIDigit) {
            guard let seconds = Int64(text) else { return nil }
            return .seconds(seconds)
        }
        guard let date = httpDate(text) else { return nil }
        return .milliseconds(max(0, Int64((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }

    /// The delay in `response`'s `Retry-After` field.
    static func delay(in response: HTTPResponse, now: Date) -> Duration? {
        delay(from: response.headerFields[.retryAfter], now: now)
    }

    /// Parses the three date forms HTTP allows: IMF-fixdate, RFC 850, and asctime.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
