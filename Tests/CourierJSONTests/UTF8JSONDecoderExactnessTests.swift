import Courier
import CourierJSON
import Foundation
import PropertyBased
import TestSupport
import Testing

extension GeneratedInputTests {
    /// The corners where `UTF8JSONDecoder` once read differently from `JSONDecoder`: numbers at the
    /// edge of a type's range, ISO 8601 dates, nulls, unkeyed containers at their end, member names
    /// that are equal as `String`s but not as bytes, and repeated names. Each is checked against
    /// `JSONDecoder` on this machine, with the types errors name compared too.
    @Suite("UTF8JSONDecoder agrees with JSONDecoder where the rules are subtle", .serialized)
    struct UTF8JSONDecoderExactnessTests {
        struct Member<T: Codable & Equatable>: Codable, Equatable {
            var a: T
        }

        static let typed = JSONDifferential(comparesTypes: true)

        static func member(_ json: String) -> Data {
            Data(#"{"a":\#(json)}"#.utf8)
        }

        // MARK: Numbers

        static let tinyNumberTexts = [
            "1e-400", "-1e-400", "2.4e-324", "2.5e-324", "4.9e-324", "1e-320", "1e-46", "7e-46", "1e-45", "1.4e-45",
            "0." + String(repeating: "0", count: 400) + "1", "0e-400", "-0e-999", "0.000", "-0.0", "0", "1e-7",
        ]

        @Test("a non-zero number below a floating-point type's range is dataCorrupted, not zero", arguments: tinyNumberTexts)
        func tinyNumbers(json: String) {
            let data = Self.member(json)
            Self.typed.expectAgreement(Member<Double>.self, data)
            Self.typed.expectAgreement(Member<Float>.self, data)
            Self.typed.expectAgreement(Member<Int>.self, data)
            Self.typed.expectAgreement(Member<[Double]>.self, Self.member("[\(json)]"))
            Self.typed.expectAgreement([Float].self, Data("[\(json)]".utf8))
        }

        @Test("generated numbers around the smallest Double and Float read as JSONDecoder reads them")
        func generatedTinyNumbers() async {
            await propertyCheck(count: 2000, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                let digits = (0..<Int.random(in: 1...20, using: &random)).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
                let exponent = Bool.random(using: &random) ? Int.random(in: -345 ... -300, using: &random) : Int.random(in: -50 ... -35, using: &random)
                let sign = Bool.random(using: &random) ? "-" : ""
                let json = "\(sign)\(digits.prefix(1)).\(digits.dropFirst().isEmpty ? "0" : String(digits.dropFirst()))e\(exponent)"
                Self.typed.expectAgreement(Member<Double>.self, Self.member(json))
                Self.typed.expectAgreement(Member<Float>.self, Self.member(json))
            }
        }

        @Test("generated numbers of 16 to 19 significant digits read to the same Double, to the last bit")
        func generatedLongSignificands() async {
            await propertyCheck(count: 3000, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                let numbers = (0..<20).map { _ in
                    let digits = String(UInt64.random(in: 1_000_000_000_000_000...UInt64.max, using: &random)).prefix(Int.random(in: 16...19, using: &random))
                    let point = Int.random(in: 1...digits.count, using: &random)
                    let sign = Bool.random(using: &random) ? "-" : ""
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: return "\(sign)\(digits.prefix(point)).\(digits.dropFirst(point).isEmpty ? "0" : String(digits.dropFirst(point)))"
                    case 1: return "\(sign)\(digits)e\(Int.random(in: -30...25, using: &random))"
                    default: return "\(sign)0.\(digits)"
                    }
                }
                Self.typed.expectAgreement([Double].self, Data("[\(numbers.joined(separator: ","))]".utf8))
            }
        }

        static let wideIntegerTexts = [
            "-9223372036854775808.0", "-9223372036854775808", "-9223372036854775808e0", "-922337203685477580.8e1",
            "-9223372036854775807.0", "9223372036854775807.0", "9223372036854775808.0", "18446744073709551615.0",
            "12345678901234567890.0", "-9.2e18", "9.3e18", "1e19", "-0.0", "1e-400", "-2147483648.0", "-128.0",
        ]

        @Test("integers written with a fraction or exponent from 2^53 up, Int64.min among them", arguments: wideIntegerTexts)
        func wideIntegers(json: String) {
            let data = Self.member(json)
            Self.typed.expectAgreement(Member<Int>.self, data)
            Self.typed.expectAgreement(Member<Int64>.self, data)
            Self.typed.expectAgreement(Member<UInt64>.self, data)
            Self.typed.expectAgreement(Member<Int32>.self, data)
            Self.typed.expectAgreement(Member<Int8>.self, data)
            Self.typed.expectAgreement([Int].self, Data("[\(json)]".utf8))
        }

        @Test("generated 64-bit integers written with a fraction or exponent read as JSONDecoder reads them")
        func generatedWideIntegers() async {
            await propertyCheck(count: 2000, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                let magnitude = Bool.random(using: &random) ? UInt64.random(in: 0...UInt64.max, using: &random) : (UInt64(1) << 63) &+ UInt64.random(in: 0...3, using: &random) &- 2
                let sign = Bool.random(using: &random) ? "-" : ""
                let json = ["\(sign)\(magnitude).0", "\(sign)\(magnitude)e0", "\(sign)\(magnitude / 10).\(magnitude % 10)e1"][Int.random(in: 0..<3, using: &random)]
                Self.typed.expectAgreement(Member<Int64>.self, Self.member(json))
                Self.typed.expectAgreement(Member<UInt64>.self, Self.member(json))
            }
        }

        @Test(
            "non-conforming float names match only strings written without escapes",
            arguments: [
                #""NaN""#, #""\u004eaN""#, #""Inf""#, #""\u0049nf""#, #""-Inf""#, #""\u002dInf""#, #""nan""#,
            ])
        func nonConformingNames(json: String) {
            let differential = JSONDifferential(
                configure: {
                    $0.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "Inf", negativeInfinity: "-Inf", nan: "NaN")
                }, comparesTypes: true)
            differential.expectAgreement(Member<Double>.self, Self.member(json))
            differential.expectAgreement(Member<Float>.self, Self.member(json))
            differential.expectAgreement([Double].self, Data("[\(json)]".utf8))
        }

        // MARK: ISO 8601 dates

        static let iso = JSONDifferential(configure: { $0.dateDecodingStrategy = .iso8601 }, comparesTypes: true)

        static let isoTexts = [
            "2024-05-01T12:30:00Z", "2024-05-01t12:30:00z", "2024-05-01T12:30:00+23:59", "2024-05-01T12:30:00+02",
            "2024-05-01T12:30:00+2:00", "2024-05-01T12:30:00GMT", "2024-05-01T12:30:00UTC", "2024-05-01T2:30:00Z",
            "2024-05-01T24:00:00Z", "2024-12-31T23:59:60Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z",
            "1582-10-14T00:00:00Z", "1582-10-15T00:00:00Z", "1583-01-01T00:00:00Z", "1600-02-29T12:00:00Z",
            "2024-05-01T12:30:00.123456789Z", "2024-05-01T12:30:00.1234567891Z", "2024-05-01T12:30:00.123456789012Z",
            "2024-05-01T12:30:00.5Z", "2024-02-30T00:00:00Z", "2023-02-29T00:00:00Z", "2024-05-01T12:30:00+0200",
            "2024-05-01T12:30:00+14:00", "2024-05-01T12:30:00+18:00", "2024-05-01T12:30:00-18:00", "2024-05-01T12:30:00+18:01",
            "2024-05-01T12:30:00-00:00", "2024-05-01T12:30:00 Z", "2024-05-01 12:30:00Z", "20240501T123000Z",
            "2024-05-01T12:30Z", "2024-05-01T12:30:00", "2024-05-01T12:30:00.Z", "2024-05-01T12:30:00,5Z",
            "2024-05-01T12:30:00+02:00:00", "2024-05-01T12:60:00Z", "2024-05-01T12:30:61Z", "2024-5-01T12:30:00Z",
            "24-05-01T12:30:00Z", "2024-05-01T12:30:00EST", "2024-05-01T12:30:00GMT+2", "2024-05-01T12:30:00gmt",
            "2024-05-01T12:30:00Zjunk", "2024-05-01T12:30:00.123+02:00", "2024-05-01T25:00:00Z", "2024-00-01T00:00:00Z",
            "2024-01-00T00:00:00Z", "12024-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "", "x",
        ]

        @Test("ISO 8601: each form Foundation accepts or refuses gives the same Date or error", arguments: isoTexts)
        func isoForms(text: String) {
            Self.iso.expectAgreement(Member<Date>.self, Self.member("\"\(text)\""))
        }

        @Test("ISO 8601: escaped texts and values that are not strings")
        func isoOtherValues() {
            for json in [#""2024-05-01T12:30:00\u005a""#, "1714566600", "null", "{}", "[]", "true"] {
                Self.iso.expectAgreement(Member<Date>.self, Self.member(json))
            }
        }

        @Test("ISO 8601: generated timestamps decode to the same Date, to the last bit")
        func generatedTimestamps() async {
            await propertyCheck(count: 3000, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                func two(_ range: ClosedRange<Int>) -> String {
                    let value = Int.random(in: range, using: &random)
                    return value < 10 ? "0\(value)" : "\(value)"
                }
                let year = Int.random(in: 0..<10, using: &random) == 0 ? Int.random(in: 0...1700, using: &random) : Int.random(in: 1583...9999, using: &random)
                let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
                let fraction = Int.random(in: 0..<3, using: &random) == 0 ? "" : "." + (0..<Int.random(in: 1...10, using: &random)).map { _ in String(Int.random(in: 0...9, using: &random)) }.joined()
                let zone = Bool.random(using: &random) ? "Z" : (Bool.random(using: &random) ? "+" : "-") + two(0...19) + ":" + two(0...59)
                let text = "\(yearText)-\(two(1...12))-\(two(1...31))T\(two(0...23)):\(two(0...59)):\(two(0...59))\(fraction)\(zone)"
                Self.iso.expectAgreement(Member<Date>.self, Self.member("\"\(text)\""))
            }
        }

        // MARK: Nulls

        static let dateStrategies: [(String, @Sendable (JSONDecoder) -> Void)] = [
            ("deferred", { _ in }),
            ("seconds", { $0.dateDecodingStrategy = .secondsSince1970 }),
            ("milliseconds", { $0.dateDecodingStrategy = .millisecondsSince1970 }),
            ("ISO 8601", { $0.dateDecodingStrategy = .iso8601 }),
            // A custom strategy called with null would return this date instead of an error.
            ("custom", { $0.dateDecodingStrategy = .custom { _ in Date(timeIntervalSince1970: -1) } }),
            ("custom data", { $0.dataDecodingStrategy = .custom { _ in Data([1]) } }),
            ("deferred data", { $0.dataDecodingStrategy = .deferredToData }),
        ]

        @Test("null for Date, Data and URL is valueNotFound naming that type, and no custom strategy is called")
        func nullLeaves() {
            for (_, configure) in Self.dateStrategies {
                let differential = JSONDifferential(configure: configure, comparesTypes: true)
                for json in [#"{"a":null}"#, "[null]", "null"] {
                    let data = Data(json.utf8)
                    differential.expectAgreement(Member<Date>.self, data)
                    differential.expectAgreement(Member<Data>.self, data)
                    differential.expectAgreement(Member<URL>.self, data)
                    differential.expectAgreement(Member<Decimal>.self, data)
                    differential.expectAgreement(Member<Date?>.self, data)
                    differential.expectAgreement([Date].self, data)
                    differential.expectAgreement([Data].self, data)
                    differential.expectAgreement([URL].self, data)
                    differential.expectAgreement([Date?].self, data)
                    differential.expectAgreement(Date.self, data)
                    differential.expectAgreement(Data.self, data)
                }
            }
        }

        /// Asks a keyed container for a nested container of each kind at member "a".
        struct NestedProbe: Decodable, Equatable {
            var log: [String] = []
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: JSONKeyForTests.self)
                let key = JSONKeyForTests("a")
                log.append(Self.note { _ = try container.nestedContainer(keyedBy: JSONKeyForTests.self, forKey: key) })
                log.append(Self.note { _ = try container.nestedUnkeyedContainer(forKey: key) })
            }

            static func note(_ body: () throws -> Void) -> String {
                do {
                    try body()
                    return "ok"
                } catch {
                    return JSONDifferential.outcome(Result<Void, any Error>.failure(error), typed: true).description
                }
            }
        }

        @Test("nested containers asked of null are valueNotFound; of a number, typeMismatch", arguments: ["null", "1", "\"x\"", "[]", "{}"])
        func nestedContainersOfNull(json: String) {
            Self.typed.expectAgreement(NestedProbe.self, Self.member(json))
            Self.typed.expectAgreement(Member<[Int]>.self, Self.member(json))
            Self.typed.expectAgreement(Member<[String: Int]>.self, Self.member(json))
        }

        // MARK: Unkeyed containers

        /// Runs a script over an unkeyed container: the array's first element says what to ask for,
        /// one letter a call, and the log has each call's outcome and the index after it.
        struct UnkeyedScript: Decodable, Equatable {
            var log: [String] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                let script = try container.decode(String.self)
                for letter in script {
                    let outcome = NestedProbe.note {
                        switch letter {
                        case "i": _ = try container.decode(Int.self)
                        case "s": _ = try container.decode(String.self)
                        case "b": _ = try container.decode(Bool.self)
                        case "g": _ = try container.decode(Member<Int>.self)
                        case "a": _ = try container.decode([Int].self)
                        case "?": _ = try container.decodeIfPresent(Int.self)
                        case "p": _ = try container.decodeIfPresent(String.self)
                        case "G": _ = try container.decodeIfPresent(Member<Int>.self)
                        case "k": _ = try container.nestedContainer(keyedBy: JSONKeyForTests.self)
                        case "u": _ = try container.nestedUnkeyedContainer()
                        case "n": _ = try container.decodeNil()
                        default: _ = try container.superDecoder()
                        }
                    }
                    log.append("\(letter): \(outcome) -> \(container.currentIndex) \(container.isAtEnd)")
                }
            }
        }

        @Test(
            "an unkeyed container past its end names the types JSONDecoder names; decodeIfPresent moves on as there",
            arguments: [
                #"["i"]"#, #"["s"]"#, #"["g"]"#, #"["a"]"#, #"["k"]"#, #"["u"]"#, #"["n"]"#, #"["x"]"#, #"["????"]"#,
                #"["?p?G", 1, null]"#, #"["ii", 1]"#, #"["kuk", null, null]"#, #"["G?G", null]"#, #"["nni", null, 2]"#,
            ])
        func unkeyedAtEnd(json: String) {
            Self.typed.expectAgreement(UnkeyedScript.self, Data(json.utf8))
        }

        @Test("generated unkeyed scripts: the same outcomes and indices as JSONDecoder")
        func generatedUnkeyedScripts() async {
            let letters = Array("isbga?pGkunx")
            let elements = ["1", "null", "\"x\"", "true", "[1]", "{\"a\":1}", "{}", "[]"]
            await propertyCheck(count: 2000, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                let script = String((0..<Int.random(in: 1...8, using: &random)).map { _ in letters[Int.random(in: 0..<letters.count, using: &random)] })
                let values = (0..<Int.random(in: 0...5, using: &random)).map { _ in elements[Int.random(in: 0..<elements.count, using: &random)] }
                Self.typed.expectAgreement(UnkeyedScript.self, Data(#"["\#(script)"\#(values.map { "," + $0 }.joined())]"#.utf8))
            }
        }

        // MARK: Member names

        struct Decomposed: Codable, Equatable {
            var value: Int
            enum CodingKeys: String, CodingKey { case value = "e\u{301}" }
        }

        struct Precomposed: Codable, Equatable {
            var value: Int
            enum CodingKeys: String, CodingKey { case value = "\u{E9}" }
        }

        @Test(
            "member names compare as Strings: a precomposed é finds a decomposed key, and back",
            arguments: [
                "{\"\u{E9}\":1}", "{\"e\u{301}\":1}", #"{"\u00e9":1}"#, #"{"e\u0301":1}"#, "{\"\u{E9}\":1,\"e\u{301}\":2}",
                "{\"e\u{301}\":2,\"\u{E9}\":1}", "{\"x\":0,\"\u{E9}\":1}", "{\"\u{212B}\":1}", "{\"e\":1}",
            ])
        func canonicallyEquivalentNames(json: String) {
            let data = Data(json.utf8)
            Self.typed.expectAgreement(Decomposed.self, data)
            Self.typed.expectAgreement(Precomposed.self, data)
            JSONDifferential(configure: { $0.keyDecodingStrategy = .convertFromSnakeCase }, comparesTypes: true).expectAgreement(Decomposed.self, data)
        }

        struct Pair: Codable, Equatable {
            var a: Int
            var b: Int
        }

        struct ReversedPair: Codable, Equatable {
            var b: Int
            var a: Int
        }

        @Test(
            "a repeated member name reads the first member, whatever order the keys are asked in",
            arguments: [
                #"{"a":1,"b":2,"a":3}"#, #"{"b":2,"a":1,"a":3}"#, #"{"a":"x","b":2,"a":3}"#, #"{"a":1,"b":2,"a":"x"}"#, #"{"a":1,"\u0061":3,"b":2}"#,
            ])
        func repeatedNames(json: String) {
            let data = Data(json.utf8)
            Self.typed.expectAgreement(Pair.self, data)
            Self.typed.expectAgreement(ReversedPair.self, data)
            Self.typed.expectAgreement([String: Int].self, data)
            JSONDifferential(configure: { $0.keyDecodingStrategy = .convertFromSnakeCase }, comparesTypes: true).expectAgreement(ReversedPair.self, data)
            JSONDifferential(configure: { $0.keyDecodingStrategy = .custom { path in path.last ?? JSONKeyForTests("") } }, comparesTypes: true)
                .expectAgreement(ReversedPair.self, data)
        }

        /// Reads the member names listed in member "order", in that order: whether each is
        /// there, null or an Int; then the set of all keys.
        struct KeyScript: Decodable, Equatable {
            var log: [String] = []
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: JSONKeyForTests.self)
                log = try Self.read(try container.decode([String].self, forKey: JSONKeyForTests("order")), in: container)
                log.append(Set(container.allKeys.map(\.stringValue)).sorted().joined(separator: ","))
            }

            /// For each of `names` that is a key of `Key`, in that order: whether its member is
            /// there, null or an Int.
            static func read<Key: CodingKey>(_ names: [String], in container: KeyedDecodingContainer<Key>) throws -> [String] {
                var log: [String] = []
                for name in names {
                    guard let key = Key(stringValue: name) else { continue }
                    if !container.contains(key) {
                        log.append("\(name) absent")
                    } else if try container.decodeNil(forKey: key) {
                        log.append("\(name) null")
                    } else if let value = try? container.decode(Int.self, forKey: key) {
                        log.append("\(name)=\(value)")
                    } else {
                        log.append("\(name) not an Int")
                    }
                }
                return log
            }
        }

        /// Names as written in JSON (some escaped, some equivalent to others) and as asked for.
        static let writtenNames = ["a", "b", "c", "a_b", "aB", "_a", "a_", "user_id", "userId", "\u{E9}", "e\u{301}", "\\u0061", "\\u00e9", "A"]
        static let askedNames = ["a", "b", "c", "a_b", "aB", "_a", "a_", "user_id", "userId", "\u{E9}", "e\u{301}", "A", "zz"]

        @Test("generated objects with repeated names: the first member of each name, asked in any order, under each key strategy")
        func generatedRepeatedNames() async {
            let strategies: [JSONDifferential] = [
                JSONDifferential(comparesTypes: true),
                JSONDifferential(configure: { $0.keyDecodingStrategy = .convertFromSnakeCase }, comparesTypes: true),
                JSONDifferential(configure: { $0.keyDecodingStrategy = .custom { path in path.last ?? JSONKeyForTests("") } }, comparesTypes: true),
            ]
            await propertyCheck(count: 1500, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                // Up to 40 members, so that objects past the small-object check are met too.
                var members = (0..<Int.random(in: 0...40, using: &random)).map { offset in
                    let name = Self.writtenNames[Int.random(in: 0..<Self.writtenNames.count, using: &random)]
                    let value = Int.random(in: 0..<8, using: &random) == 0 ? "null" : (Int.random(in: 0..<8, using: &random) == 0 ? "\"s\"" : "\(offset)")
                    return "\"\(name)\":\(value)"
                }
                let order = (0..<Int.random(in: 0...12, using: &random)).map { _ in "\"\(Self.askedNames[Int.random(in: 0..<Self.askedNames.count, using: &random)])\"" }
                members.insert("\"order\":[\(order.joined(separator: ","))]", at: Int.random(in: 0...members.count, using: &random))
                let data = Data("{\(members.joined(separator: ","))}".utf8)
                for differential in strategies {
                    differential.expectAgreement(KeyScript.self, data)
                }
            }
        }
    }
}
