import Foundation

/// HTTP dates as servers write them (`Date`, `Expires`, `Retry-After`, `Last-Modified`): the
/// IMF-fixdate of RFC 9110 §5.6.7, and the obsolete RFC 850 and asctime forms a recipient must
/// still read, plus the four-digit-year RFC 850 variant cookies use.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy",
        "EEE, dd-MMM-yyyy HH:mm:ss zzz",
    ]

    /// The date `text` stands for, or `nil` when it is in none of the forms.
    static func parse(_ text: String) -> Date? {
        // Every form is at most 37 characters; a longer text is none of them, and is never handed
        // to a formatter.
        guard text.utf8.count <= 64 else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
