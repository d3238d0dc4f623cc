import Courier
import CourierJSON
import Foundation
import Testing

/// Numbers and dates at and past every limit a server can push: each decodes to what
/// `JSONDecoder` gives on the same platform (a value or an error), and none traps.
@Suite("Decoding numbers and dates at their limits, as JSONDecoder does")
struct UTF8JSONDecoderBoundaryTests {
    static let iso8601 = JSONDifferential { $0.dateDecodingStrategy = .iso8601 }

    /// The payload that once stopped the process: 20 fractional digits in a date.
    @Test("a date with twenty fractional digits decodes as with JSONDecoder, through the decoder")
    func longFraction() {
        struct Event: Decodable, Equatable {
            var created_at: Date
        }
        let payload = Data(#"{"created_at": "2020-01-01T00:00:00.12345678901234567890Z"}"#.utf8)
        Self.iso8601.expectAgreement(Event.self, payload)
    }

    /// Every numeric position of an RFC 3339 date, given 19, 20 and 400 digits of several shapes.
    @Test(
        "19, 20 and 400 digits in every numeric position of a date",
        arguments: ["year", "month", "day", "hour", "minute", "second", "fraction", "offset hours", "offset minutes"]
    )
    func longDateFields(position: String) {
        let fields: [(String, String)] = [
            ("year", "2024"), ("-", "-"), ("month", "05"), ("-", "-"), ("day", "01"), ("T", "T"),
            ("hour", "12"), (":", ":"), ("minute", "30"), (":", ":"), ("second", "00"), (".", "."),
            ("fraction", "250"), ("+", "+"), ("offset hours", "02"), (":", ":"), ("offset minutes", "00"),
        ]
        for count in [19, 20, 400] {
            for digits in [String(repeating: "9", count: count), "1" + String(repeating: "0", count: count - 1), String(repeating: "0", count: count - 1) + "1"] {
                let text = fields.map { $0.0 == position ? digits : $0.1 }.joined()
                Self.iso8601.expectAgreement([Date].self, Data(#"["\#(text)"]"#.utf8))
            }
        }
    }

    @Test(
        "Int64.min and Int64.max and one past, into every integer width",
        arguments: [
            "-9223372036854775808", "9223372036854775807", "-9223372036854775809", "9223372036854775808",
            "18446744073709551615", "18446744073709551616", "-18446744073709551616",
            "9223372036854775807.0", "-9223372036854775808.0", "9223372036854775808e0", "92233720368547758070e-1",
            String(repeating: "9", count: 400), "-" + String(repeating: "9", count: 400),
        ])
    func integerLimits(number: String) {
        let data = Data("[\(number)]".utf8)
        let differential = JSONDifferential()
        differential.expectAgreement([Int64].self, data)
        differential.expectAgreement([Int].self, data)
        differential.expectAgreement([UInt64].self, data)
        differential.expectAgreement([Int8].self, data)
        differential.expectAgreement([UInt32].self, data)
        differential.expectAgreement([Double].self, data)
        differential.expectAgreement([Float].self, data)
    }

    @Test(
        "exponents of plus and minus 10^9, and past any integer",
        arguments: [
            "1e1000000000", "1e-1000000000", "-1E+1000000000", "0e1000000000", "0.0e-1000000000",
            "1e9223372036854775807", "1e-9223372036854775808", "1e" + String(repeating: "9", count: 400),
            "123456789012345678901234567890e-1000000000",
        ])
    func hugeExponents(number: String) {
        let data = Data("[\(number)]".utf8)
        let differential = JSONDifferential()
        differential.expectAgreement([Double].self, data)
        differential.expectAgreement([Float].self, data)
        differential.expectAgreement([Int].self, data)
        differential.expectAgreement([UInt64].self, data)
        differential.expectAgreement([Date].self, data)
        JSONDifferential { $0.dateDecodingStrategy = .secondsSince1970 }.expectAgreement([Date].self, data)
        JSONDifferential { $0.dateDecodingStrategy = .millisecondsSince1970 }.expectAgreement([Date].self, data)
    }

    @Test("thousands of leading zeros in a fraction, an exponent and an integer")
    func leadingZeros() {
        let zeros = String(repeating: "0", count: 5000)
        let differential = JSONDifferential()
        for number in ["0.\(zeros)1", "1.\(zeros)1", "1e\(zeros)5", "1e-\(zeros)5", "\(zeros)1", "-0\(zeros)", "0.\(zeros)"] {
            let data = Data("[\(number)]".utf8)
            differential.expectAgreement([Double].self, data)
            differential.expectAgreement([Int].self, data)
            differential.expectAgreement([Int8].self, data)
        }
    }

    @Test("a number as a date, at the limits of every numeric date strategy")
    func numericDates() {
        for strategy in [JSONDecoder.DateDecodingStrategy.secondsSince1970, .millisecondsSince1970] {
            let differential = JSONDifferential { $0.dateDecodingStrategy = strategy }
            for number in ["1e308", "-1e308", "1.7976931348623157e308", "9223372036854775807", "4.9e-324", "1e400"] {
                differential.expectAgreement([Date].self, Data("[\(number)]".utf8))
            }
        }
    }

    /// Found by `fuzz-json-models`: on Linux, swift-corelibs-foundation's `DateFormatter` traps
    /// ("Incorrect range") when its parse stops inside a character of several UTF-16 units (here
    /// `1` and a combining U+030D), and ICU's parser divides by zero on a fraction of about 35
    /// digits or more (in any script), so `.formatted` stops the process in `JSONDecoder` and in
    /// any decoder that calls it. `.safelyFormatted` refuses such a text as not matching instead.
    @Test(
        "safelyFormatted: a text Foundation's formatter would trap on is a DecodingError",
        arguments: [
            "118601\u{030D}9K8438270793T\n00:00:00Z", "2024\u{1F600}-05-01T12:30:00.000+0000", "2024-05-01T12:30:00.000+000\u{0301}0",
            "2020-01-01T00:00:00.\(String(repeating: "5", count: 49))+0000",
            "2020-01-01T00:00:00.\(String(repeating: "\u{0665}", count: 40))+0000",
            String(repeating: "2020-01-01T00:00:00.000+0000", count: 20),
        ])
    func safelyFormattedRefusesSplitCharacters(text: String) throws {
        var decoder = UTF8JSONDecoder()
        decoder.dateDecodingStrategy = .safelyFormatted(Self.formatter)
        let json = try JSONEncoder().encode([text])
        #expect(throws: DecodingError.self) { try decoder.decode([Date].self, from: json) }
    }

    @Test("safelyFormatted reads what formatted reads")
    func safelyFormattedReads() throws {
        var decoder = UTF8JSONDecoder()
        decoder.dateDecodingStrategy = .safelyFormatted(Self.formatter)
        let dates = try decoder.decode([Date].self, from: Data(#"["2024-05-01T12:30:00.250+0200"]"#.utf8))
        #expect(dates == [Date(timeIntervalSince1970: 1_714_559_400.25)])
        #expect(throws: DecodingError.self) { try decoder.decode([Date].self, from: Data(#"["May 1"]"#.utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode([Date].self, from: Data(#"[1]"#.utf8)) }
    }

    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSSZ"
        return formatter
    }()
}
