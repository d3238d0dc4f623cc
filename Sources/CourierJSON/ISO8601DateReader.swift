import Foundation

/// Reads the common form of RFC 3339 timestamps (`2024-05-01T12:30:00Z`, `…00.250+02:00`)
/// without a formatter, to the same `Date` as `JSONDecoder`'s `.iso8601` strategy.
///
/// Foundation's parser accepts much more (`+02`, `GMT`, a one-digit hour, `24:00:00`, a leap
/// second, days past the month's end rolled over) and reads dates before 1582-10-15 in the Julian
/// calendar. This reader answers only for the form it reads exactly as Foundation does, and `nil`
/// otherwise: the caller then asks Foundation, so every text gets Foundation's answer.
package enum ISO8601DateReader {
    /// Seconds from 1970 to 2001, where `Date` counts from: Foundation adds the fraction there,
    /// and so must this reader to round the same.
    private static let referenceDateOffset = 978_307_200

    /// The date `text` stands for, or `nil` when it is not in the form this reader knows.
    static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(from: $0) }
    }

    /// The date `bytes` stand for, or `nil` when they are not in the form this reader knows.
    static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
                index += 1
            }
            return value
        }
        func expect(_ character: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
            let day = number(2), expect(UInt8(ascii: "T")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), expect(UInt8(ascii: ":")),
            let second = number(2)
        else { return nil }
        // From 1583 on Foundation's Gregorian calendar is the proleptic one computed here.
        guard year >= 1583, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0
        var fractionDigits = 0
        if expect(UInt8(ascii: ".")) {
            // Foundation refuses more than nine digits, so the reader stops at the tenth: the
            // value never holds more than ten digits, whatever length the server sent.
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10, fractionDigits < 10 {
                fraction = fraction * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                fractionDigits += 1
            }
            // Ten digits or more, or none at all, are not this form: Foundation answers for them.
            guard (1...9).contains(fractionDigits) else { return nil }
        }
        var offset = 0
        if expect(UInt8(ascii: "Z")) {
            offset = 0
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2), expect(UInt8(ascii: ":")), let minutes = number(2),
                minutes < 60, hours * 60 + minutes <= 18 * 60  // Foundation's time zones reach ±18:00
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset - referenceDateOffset
        // The digits over a power of ten: the fraction correctly rounded, as Foundation has it.
        let fractionValue = fractionDigits == 0 ? 0 : Double(fraction) / powersOfTen[fractionDigits]
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + fractionValue)
    }

    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]

    package static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
