import CourierJSON
import Foundation

/// HTTP dates as servers write them (`Date`, `Expires`, `Last-Modified`, `Retry-After`), read
/// without a formatter: the IMF-fixdate of RFC 9110 §5.6.7 (`Sun, 06 Nov 1994 08:49:37 GMT`), the
/// obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`)
/// forms a recipient must still read, and the RFC 850 form with a four-digit year that cookies use.
///
/// Every field has a fixed number of digits, so nothing a server sends can overflow; a day past
/// its month's end, an hour past 23 or any other zone than `GMT` (or `UTC`) is not a date.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The date `text` stands for, or `nil` when it is in none of the forms.
    static func parse(_ text: String) -> Date? {
        var reader = Reader(bytes: Array(text.utf8))
        // A weekday name, which RFC 9110 lets a recipient ignore: it is checked to be one, and
        // otherwise left alone.
        guard let weekday = reader.word(), weekdays.contains(String(weekday.prefix(3))) else { return nil }
        if reader.skip(",") {
            guard reader.skip(" "), let day = reader.number(digits: 1...2) else { return nil }
            let separator: Unicode.Scalar
            if reader.skip("-") {
                separator = "-"
            } else if reader.skip(" ") {
                separator = " "
            } else {
                return nil
            }
            guard let month = reader.month(), reader.skip(separator),
                let year = reader.year(), reader.skip(" "),
                let time = reader.time(), reader.skip(" "), reader.zone(), reader.isAtEnd
            else { return nil }
            return date(year: year, month: month, day: day, time: time)
        }
        // asctime: `Sun Nov  6 08:49:37 1994`, a one-digit day led by a space.
        guard reader.skip(" "), let month = reader.month(), reader.skip(" ") else { return nil }
        _ = reader.skip(" ")
        guard let day = reader.number(digits: 1...2), reader.skip(" "), let time = reader.time(), reader.skip(" "),
            let year = reader.number(digits: 4...4), reader.isAtEnd
        else { return nil }
        return date(year: year, month: month, day: day, time: time)
    }

    private static func date(year: Int, month: Int, day: Int, time: (hour: Int, minute: Int, second: Int)) -> Date? {
        guard (1...ISO8601DateReader.daysIn(month: month, year: year)).contains(day) else { return nil }
        let days = ISO8601DateReader.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Reads a date's bytes front to back.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        /// How many digits the last ``number(digits:)`` read.
        var lastDigits = 0

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            skip(UInt8(ascii: character))
        }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// Three to nine ASCII letters, lowercased.
        mutating func word() -> String? {
            let start = index
            while index < bytes.count, index - start < 9, (bytes[index] | 0x20) &- UInt8(ascii: "a") < 26 { index += 1 }
            guard index - start >= 3 else { return nil }
            return String(decoding: bytes[start..<index].map { $0 | 0x20 }, as: UTF8.self)
        }

        mutating func month() -> Int? {
            guard let word = word(), word.count == 3, let month = HTTPDate.months.firstIndex(of: word) else { return nil }
            return month + 1
        }

        /// A number of `digits` digits (as many as there are, within the range).
        mutating func number(digits: ClosedRange<Int>) -> Int? {
            var value = 0
            let start = index
            while index < bytes.count, index - start < digits.upperBound, bytes[index] &- UInt8(ascii: "0") < 10 {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            lastDigits = index - start
            return digits.contains(lastDigits) ? value : nil
        }

        /// Four digits, or RFC 850's two: 70–99 are 1970–1999, 00–69 are 2000–2069 (as RFC 6265
        /// §5.1.1 reads them).
        mutating func year() -> Int? {
            guard let year = number(digits: 2...4) else { return nil }
            switch lastDigits {
            case 2: return year + (year < 70 ? 2000 : 1900)
            case 4: return year
            default: return nil
            }
        }

        /// `HH:MM:SS`, each of two digits; a leap second reads as the second before it.
        mutating func time() -> (hour: Int, minute: Int, second: Int)? {
            guard let hour = number(digits: 2...2), hour < 24, skip(":"), let minute = number(digits: 2...2), minute < 60,
                skip(":"), let second = number(digits: 2...2), second <= 60
            else { return nil }
            return (hour, minute, min(second, 59))
        }

        mutating func zone() -> Bool {
            guard let zone = word() else { return false }
            return zone == "gmt" || zone == "utc"
        }
    }
}
