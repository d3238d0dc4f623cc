import Courier
import Foundation
import Testing

@testable import CourierJSON

/// RFC 8259 written out: what a JSON text may and may not be, and the values it stands for.
@Suite("UTF8JSONDecoder reads JSON exactly as RFC 8259 defines it")
struct JSONRFC8259Tests {
    let decoder = UTF8JSONDecoder()

    /// The syntax error `text` gives, or `nil` when it parses.
    func syntaxError(_ text: String) -> JSONSyntaxError.Reason? {
        syntaxError(Array(text.utf8))
    }

    func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError.Reason? {
        do {
            _ = try bytes.withUnsafeBufferPointer { try JSONTape(parsing: $0) }
            return nil
        } catch let error as JSONSyntaxError {
            return error.reason
        } catch {
            return nil
        }
    }

    @Test("top-level scalars are JSON texts (§2)", arguments: ["0", "-1.5", "\"x\"", "true", "false", "null", " \t\r\n1\n "])
    func topLevelScalars(text: String) {
        #expect(syntaxError(text) == nil)
    }

    @Test("numbers: the grammar of §6, and the nearest Double")
    func numbers() throws {
        let values: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("1", 1), ("-1", -1), ("1.5", 1.5), ("1e2", 100), ("1E2", 100), ("1e+2", 100),
            ("1e-2", 0.01), ("0.1", 0.1), ("0.30000000000000004", 0.30000000000000004), ("1e23", 1e23),
            ("9007199254740993", 9_007_199_254_740_992), ("2.2250738585072011e-308", Double(bitPattern: 0x000F_FFFF_FFFF_FFFF)),
            ("4.9e-324", .leastNonzeroMagnitude), ("1.7976931348623157e308", 1.7976931348623157e308),
            ("123456789012345678901234567890", 1.2345678901234568e29), ("0.000001234", 0.000001234), ("0e-400", 0),
        ]
        for (text, expected) in values {
            let value = try decoder.decode(Double.self, from: Data(text.utf8))
            #expect(value == expected && value.sign == expected.sign, "\(text) read as \(value)")
        }
        #expect(try decoder.decode(Double.self, from: Data("-0.0".utf8)).sign == .minus)
        // Grammatical, but below Double's range: an error, as in JSONDecoder, rather than 0.
        #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: Data("1e-400".utf8)) }
        for invalid in ["01", "-01", "00", "1.", ".1", "+1", "1e", "1e+", "--1", "-", "1.e1", "0x10", "NaN", "Infinity", "-Infinity", "1_000"] {
            #expect(syntaxError(invalid) != nil, "\(invalid) was accepted")
        }
        #expect(syntaxError("01") == .leadingZero)
    }

    @Test("integers: every width, with overflow an error rather than a wrap")
    func integers() throws {
        #expect(try decoder.decode(Int8.self, from: Data("127".utf8)) == 127)
        #expect(try decoder.decode(Int8.self, from: Data("-128".utf8)) == -128)
        #expect(try decoder.decode(Int64.self, from: Data("-9223372036854775808".utf8)) == .min)
        #expect(try decoder.decode(UInt64.self, from: Data("18446744073709551615".utf8)) == .max)
        #expect(try decoder.decode(Int.self, from: Data("1.0".utf8)) == 1)
        #expect(try decoder.decode(Int.self, from: Data("1e2".utf8)) == 100)
        #expect(try decoder.decode(UInt.self, from: Data("-0".utf8)) == 0)
        // JSONDecoder's rule for a fraction or exponent, followed exactly: below 2^53 the nearest
        // Double, from 2^53 up the decimal value without its fraction, when its digits fit 64 bits.
        #expect(try decoder.decode(Int64.self, from: Data("12345234561234567.8".utf8)) == 12_345_234_561_234_567)
        #expect(throws: DecodingError.self) { try decoder.decode(Int64.self, from: Data("9007199254740993.9999".utf8)) }
        #expect(try decoder.decode(Int.self, from: Data("1.0000000000000001".utf8)) == 1)
        #expect(try decoder.decode(Int64.self, from: Data("1.2345678901234568e+18".utf8)) == 1_234_567_890_123_456_800)
        #expect(throws: DecodingError.self) { try decoder.decode(Int64.self, from: Data("12345678901234567890123e-5".utf8)) }
        for (text, type) in [("128", Int8.self), ("-129", Int8.self)] as [(String, any (Decodable & FixedWidthInteger).Type)] {
            #expect(throws: DecodingError.self) { _ = try decoder.decode(type, from: Data(text.utf8)) }
        }
        #expect(throws: DecodingError.self) { try decoder.decode(Int64.self, from: Data("9223372036854775808".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt64.self, from: Data("18446744073709551616".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt.self, from: Data("-1".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: Data("1.5".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Double.self, from: Data("1e400".utf8)) }
        #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: Data("1e39".utf8)) }
    }

    @Test("strings: every escape of §7, surrogate pairs, and UTF-8 passed through")
    func strings() throws {
        let cases: [(String, String)] = [
            (#""""#, ""), (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"), (#""\u0041\u00e9\u65E5""#, "Aé日"),
            (#""\u0000""#, "\u{0}"), (#""\ud83c\udfac""#, "🎬"), (#""\uD83D\uDC69""#, "👩"), ("\"日本語 🎬\"", "日本語 🎬"),
            (#""a\u2028b""#, "a\u{2028}b"), ("\"\u{7F}\"", "\u{7F}"),
        ]
        for (json, expected) in cases {
            #expect(try decoder.decode(String.self, from: Data(json.utf8)) == expected, "\(json)")
        }
        #expect(syntaxError(#""\ud800""#) == .loneSurrogate)
        #expect(syntaxError(#""\udc00""#) == .loneSurrogate)
        #expect(syntaxError(#""\ud800\u0041""#) == .loneSurrogate)
        #expect(syntaxError(#""\ud800x""#) == .loneSurrogate)
        #expect(syntaxError(#""\x""#) == .invalidEscape)
        #expect(syntaxError(#""\u12""#) != nil)
        #expect(syntaxError(#""\u12G4""#) == .invalidEscape)
        #expect(syntaxError("\"a\u{1}b\"") == .controlCharacterInString)
        #expect(syntaxError("\"tab\there\"") == .controlCharacterInString)
        #expect(syntaxError("\"open") == .unterminatedString)
        #expect(syntaxError("'single'") == .unexpectedCharacter)
    }

    @Test("strings of up to 40 bytes, with an escape, a multi-byte scalar or a control byte at each place, up to the text's last byte")
    func stringsOfEveryLength() throws {
        for length in 0...40 {
            let plain = (0..<length).map { String(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) }
            #expect(try decoder.decode(String.self, from: Data("\"\(plain.joined())\"".utf8)) == plain.joined())
            #expect(try decoder.decode([String].self, from: Data("[\"\(plain.joined())\"]".utf8)) == [plain.joined()])
            for place in 0...length {
                let before = plain[..<place].joined()
                let after = plain[place...].joined()
                for (written, read) in [(#"\n"#, "\n"), (#"\/"#, "/"), ("é", "é"), ("日", "日"), ("🎬", "🎬"), (#"\u00e9"#, "é")] {
                    let json = "\"\(before)\(written)\(after)\""
                    #expect(try decoder.decode(String.self, from: Data(json.utf8)) == before + read + after, "\(json)")
                }
                #expect(syntaxError("\"\(before)\u{1F}\(after)\"") == .controlCharacterInString)
                #expect(syntaxError("\"\(before)") == .unterminatedString)
            }
        }
    }

    @Test("whitespace: runs of any length and mix between any two tokens, and around the text")
    func whitespace() throws {
        struct Sample: Decodable, Equatable {
            let a: [Int]
            let b: String
        }
        let indentations = (0...40).map { "\n" + String(repeating: " ", count: $0) }
        let runs = ["", " ", "  ", "\t", "\r\n", " \n ", "\n\t\t"] + indentations + indentations.map { $0 + "\t " }
        for run in runs {
            let json = "\(run){\(run)\"a\"\(run):\(run)[\(run)1\(run),\(run)2\(run)]\(run),\(run)\"b\"\(run):\(run)\"x\"\(run)}\(run)"
            #expect(try decoder.decode(Sample.self, from: Data(json.utf8)) == Sample(a: [1, 2], b: "x"), "\(json.debugDescription)")
        }
        #expect(syntaxError("[1,\n        \u{B}2]") == .unexpectedCharacter)
        #expect(syntaxError("[1,\n        \u{0}2]") == .unexpectedCharacter)
    }

    @Test("UTF-8 is checked: overlong forms, encoded surrogates, bytes past U+10FFFF are refused")
    func utf8() {
        let invalid: [[UInt8]] = [
            [0x22, 0xC0, 0x80, 0x22], [0x22, 0xC1, 0xBF, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], [0x22, 0xFF, 0x22], [0x22, 0x80, 0x22],
            [0x22, 0xE6, 0x97, 0x22], [0x22, 0xF0, 0x9F, 0x8E],
        ]
        for bytes in invalid {
            #expect(syntaxError(bytes) == .invalidUTF8, "\(bytes)")
        }
        #expect(syntaxError([0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]) == nil)  // U+10FFFF
        #expect(syntaxError([0xEF, 0xBB, 0xBF, 0x31]) == nil)  // a byte order mark is ignored
    }

    @Test("structure: no trailing commas, comments, missing separators or extra values")
    func structure() {
        #expect(syntaxError("[1,]") == .trailingComma)
        #expect(syntaxError(#"{"a":1,}"#) == .trailingComma)
        #expect(syntaxError("[,1]") == .unexpectedCharacter)
        #expect(syntaxError("[1 2]") == .expectedCommaOrEndOfArray)
        #expect(syntaxError(#"{"a" 1}"#) == .expectedColon)
        #expect(syntaxError(#"{"a":1 "b":2}"#) == .expectedCommaOrEndOfObject)
        #expect(syntaxError("{1:2}") == .expectedMemberName)
        #expect(syntaxError("[1] // comment") == .unexpectedCharacter)
        #expect(syntaxError("/* c */ 1") == .unexpectedCharacter)
        #expect(syntaxError("1 2") == .unexpectedCharacter)
        #expect(syntaxError("") == .unexpectedEnd)
        #expect(syntaxError("   ") == .unexpectedEnd)
        #expect(syntaxError("[") == .unexpectedEnd)
        #expect(syntaxError(#"{"a":"#) == .unexpectedEnd)
        #expect(syntaxError("tru") == .unexpectedEnd)
        #expect(syntaxError("nul1") == .unexpectedCharacter)
        #expect(syntaxError("\u{B}1") == .unexpectedCharacter)  // vertical tab is not JSON whitespace
        #expect(syntaxError(#" { "a" : [ 1 , { } , [ ] ] } "#) == nil)
    }

    @Test("nesting: 512 levels are read, 513 are a clear error, and a million never overflow the stack")
    func nesting() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(syntaxError(deepest) == nil)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(syntaxError(tooDeep) == .tooDeeplyNested)
        #expect(syntaxError(String(repeating: "[", count: 1_000_000)) == .tooDeeplyNested)
        #expect(syntaxError(String(repeating: #"{"a":"#, count: 1_000_000)) == .tooDeeplyNested)
        let error = #expect(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: Data(tooDeep.utf8)) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        #expect((context.underlyingError as? JSONSyntaxError)?.reason == .tooDeeplyNested)
        #expect(context.debugDescription.contains("nested more than 512 deep"))
    }

    @Test("a syntax error is DecodingError.dataCorrupted with the reason and byte offset, as JSONDecoder's case")
    func syntaxErrorsAreDataCorrupted() {
        let error = #expect(throws: DecodingError.self) { try decoder.decode([Int].self, from: Data("[1, 2,]".utf8)) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted")
            return
        }
        #expect(context.codingPath.isEmpty)
        #expect(context.underlyingError as? JSONSyntaxError == JSONSyntaxError(.trailingComma, at: 6))
    }
}

@Suite("Snake case member names match their keys as JSONDecoder converts them")
struct SnakeCaseNameTests {
    struct Keys: Codable, Equatable {
        var userId: Int?
        var aBc: Int?
        var userIdV2X: Int?
        var _private: Int?
        var trailing_: Int?
        var plain: Int?
        var userID: Int?
        var éTé: Int?
    }

    @Test("leading and trailing underscores, case, digits, non-ASCII: as Foundation")
    func conversions() {
        let json = #"{"user_id":1,"a_bC":2,"user_id_v2x":3,"_private":4,"trailing_":5,"plain":6,"USER_ID":7,"é_té":8,"__":9}"#
        JSONDifferential { $0.keyDecodingStrategy = .convertFromSnakeCase }.expectAgreement(Keys.self, Data(json.utf8))
        JSONDifferential { $0.keyDecodingStrategy = .convertFromSnakeCase }.expectAgreement([String: Int].self, Data(json.utf8))
    }
}

@Suite("Member names are found by their exact bytes, whatever their length")
struct MemberNameMatchingTests {
    /// A key named by its position in a run of member names.
    struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads the member `wanted` from `object`, or `nil` when it is not there.
    struct Lookup: Decodable {
        var found: Int?
        init(from decoder: any Decoder) throws {
            let wanted = try #require(decoder.userInfo.first { $0.key.rawValue == "wanted" }?.value as? String)
            found = try decoder.container(keyedBy: Name.self).decodeIfPresent(Int.self, forKey: Name(stringValue: wanted))
        }
    }

    func lookup(_ wanted: String, in json: String) throws -> Int? {
        var decoder = UTF8JSONDecoder()
        decoder.userInfo = [try #require(CodingUserInfoKey(rawValue: "wanted")): wanted]
        return try decoder.decode(Lookup.self, from: Data(json.utf8)).found
    }

    @Test("names of 0 to 20 bytes match themselves, never a name one byte different or one byte longer or shorter")
    func everyLength() throws {
        for length in 0...20 {
            let name = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            #expect(try lookup(name, in: "{\"\(name)\":1}") == 1, "length \(length)")
            #expect(try lookup(name + "z", in: "{\"\(name)\":1}") == nil, "length \(length) + 1")
            if length > 0 {
                #expect(try lookup(String(name.dropLast()), in: "{\"\(name)\":1}") == nil, "length \(length) - 1")
            }
            for position in 0..<length {
                var bytes = Array(name.utf8)
                bytes[position] = UInt8(ascii: "Z")
                let other = String(decoding: bytes, as: UTF8.self)
                #expect(try lookup(other, in: "{\"\(name)\":1}") == nil, "length \(length), byte \(position)")
                #expect(try lookup(other, in: "{\"\(name)\":1,\"\(other)\":2}") == 2, "length \(length), byte \(position)")
            }
        }
    }
}
