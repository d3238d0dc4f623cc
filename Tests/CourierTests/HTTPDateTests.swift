import Foundation
import Testing

@testable import Courier

@Suite("HTTP dates: the three forms of RFC 9110, read without a formatter")
struct HTTPDateTests {
    static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }

    @Test("every form reads the same instant as DateFormatter writes it, over 3,000 seconds from 1970 to 2069")
    func agreesWithDateFormatter() {
        let forms = [
            "EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy",
            "EEE, dd-MMM-yyyy HH:mm:ss 'GMT'",
        ].map(Self.formatter)
        for step in 0..<3000 {
            // Spread over the century, at every second of the day.
            let date = Date(timeIntervalSince1970: TimeInterval(step * 1_051_919 + step * step % 86_400))
            for form in forms {
                var text = form.string(from: date)
                // asctime pads a one-digit day with a space.
                if form.dateFormat.hasPrefix("EEE MMM d "), let day = text.split(separator: " ").dropFirst(2).first, day.count == 1 {
                    text = text.replacingOccurrences(of: " \(day) ", with: "  \(day) ")
                }
                #expect(HTTPDate.parse(text) == date, "\(text)")
            }
        }
    }

    @Test("the examples of RFC 9110, and the day names, months and zones in any case")
    func examples() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun Nov 6 08:49:37 1994", "sun, 06 nov 1994 08:49:37 gmt", "Sun, 06-Nov-1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 UTC",
        ] {
            #expect(HTTPDate.parse(text) == expected, "\(text)")
        }
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Tue, 31 Dec 2024 23:59:60 GMT") == Date(timeIntervalSince1970: 1_735_689_599), "a leap second")
    }

    @Test(
        "what is not a date: days past the month, hours past 23, other zones, extra text",
        arguments: [
            "", "Sun", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 29 Feb 1995 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:00 GMT", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 1994 08:49:37 +0000",
            "Sun, 06 Nov 1994 08:49:37 GMT ", " Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 994 08:49:37 GMT",
            "Sun, 06 Nov 19940 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Xyz, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 8:49:37 GMT", "Sun Nov  6 08:49:37 94", "Sun, 06-Nov 1994 08:49:37 GMT",
            "Sun, 99999999999999999999 Nov 1994 08:49:37 GMT", "120", String(repeating: "Sunday, ", count: 1000),
        ])
    func notDates(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
