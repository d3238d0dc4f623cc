import Courier
import CourierJSON
import ExampleAPIs
import Foundation
import PropertyBased
import TestSupport
import Testing

extension GeneratedInputTests {
    /// `UTF8JSONDecoder` against `JSONDecoder`: the same values from the same bytes, and the same
    /// error case and coding path when the bytes do not fit the type.
    @Suite("UTF8JSONDecoder decodes what JSONDecoder decodes, and fails where it fails", .serialized)
    struct UTF8JSONDecoderDifferentialTests {
        /// A model with every kind of member apps decode.
        struct Record: Codable, Equatable {
            enum Kind: String, Codable { case movie, series, short }
            struct Child: Codable, Equatable {
                var name: String
                var rank: UInt8
                var parentID: Int?
            }

            var id: Int
            var small: Int8
            var unsigned: UInt64
            var wide: Int64
            var ratio: Double
            var weight: Float
            var title: String
            var isFlagged: Bool
            var note: String?
            var count: Int?
            var kind: Kind
            var tags: [String]
            var scores: [Int: Double]
            var children: [Child]
            var attributes: [String: String]
            var created: Date
            var payload: Data
            var link: URL
            var uuid: UUID
            var price: Decimal
            var grid: [[Int16]]
            var maybe: [Double?]
        }

        /// Characters that make strings interesting: escapes, controls, quotes, non-ASCII, astral.
        static let alphabet: [Character] = Array(" \"\\/\u{0}\u{1}\u{8}\t\n\r\u{1F}azAZ09_-éü日本🎬👩‍👩‍👧e\u{301}\u{FEFF}\u{7F}\u{2028}")

        static func text(_ random: inout SeededRandom, upTo length: Int = 12) -> String {
            String((0..<Int.random(in: 0...length, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
        }

        static func double(_ random: inout SeededRandom) -> Double {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: Double(Int.random(in: -1000...1000, using: &random))
            case 1: Double.random(in: -1...1, using: &random)
            case 2: Double.random(in: -1e300...1e300, using: &random)
            case 3: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &random)) * (Bool.random(using: &random) ? 1 : -1)
            default: [0.1, 0.2, 0.3, 1e-7, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, 9_007_199_254_740_992][Int.random(in: 0..<8, using: &random)]
            }
        }

        static func record(seed: UInt64) -> Record {
            var random = SeededRandom(state: seed)
            func child() -> Record.Child {
                Record.Child(
                    name: text(&random),
                    rank: .random(in: 0...255, using: &random),
                    parentID: Bool.random(using: &random) ? .random(in: Int.min...Int.max, using: &random) : nil
                )
            }
            return Record(
                id: .random(in: Int.min...Int.max, using: &random),
                small: .random(in: -128...127, using: &random),
                unsigned: .random(in: 0...UInt64.max, using: &random),
                wide: .random(in: Int64.min...Int64.max, using: &random),
                ratio: double(&random),
                weight: Float(Double.random(in: -1e6...1e6, using: &random)),
                title: text(&random, upTo: 40),
                isFlagged: .random(using: &random),
                note: Bool.random(using: &random) ? text(&random) : nil,
                count: Bool.random(using: &random) ? .random(in: -5...5, using: &random) : nil,
                kind: [.movie, .series, .short][Int.random(in: 0..<3, using: &random)],
                tags: (0..<Int.random(in: 0...4, using: &random)).map { _ in text(&random) },
                scores: Dictionary((0..<Int.random(in: 0...3, using: &random)).map { _ in (Int.random(in: -99...99, using: &random), double(&random)) }) { a, _ in a },
                children: (0..<Int.random(in: 0...3, using: &random)).map { _ in child() },
                attributes: Dictionary((0..<Int.random(in: 0...3, using: &random)).map { _ in (text(&random), text(&random)) }) { a, _ in a },
                created: Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &random))),
                payload: Data((0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
                link: URL(string: "https://example.com/\(Int.random(in: 0...999, using: &random))?q=\(Int.random(in: 0...9, using: &random))") ?? URL(fileURLWithPath: "/"),
                uuid: UUID(),
                price: Decimal(Int.random(in: -1_000_000...1_000_000, using: &random)) / 100,
                grid: (0..<Int.random(in: 0...3, using: &random)).map { _ in (0..<Int.random(in: 0...3, using: &random)).map { _ in .random(in: .min ... .max, using: &random) } },
                maybe: (0..<Int.random(in: 0...3, using: &random)).map { _ in Bool.random(using: &random) ? double(&random) : nil }
            )
        }

        /// The strategy sets the generated values are encoded and decoded with.
        struct Strategies: Sendable, CustomStringConvertible {
            var description: String
            var encode: @Sendable (JSONEncoder) -> Void
            var decode: @Sendable (JSONDecoder) -> Void
        }

        static let strategies: [Strategies] = [
            Strategies(description: "JSONDecoder's defaults", encode: { _ in }, decode: { _ in }),
            Strategies(
                description: "snake case, ISO 8601 dates, base64",
                encode: {
                    $0.keyEncodingStrategy = .convertToSnakeCase; $0.dateEncodingStrategy = .iso8601
                },
                decode: {
                    $0.keyDecodingStrategy = .convertFromSnakeCase; $0.dateDecodingStrategy = .iso8601
                }
            ),
            Strategies(
                description: "custom keys, milliseconds, seconds",
                encode: { $0.dateEncodingStrategy = .millisecondsSince1970 },
                decode: {
                    $0.keyDecodingStrategy = .custom { path in path.last ?? JSONKeyForTests("") }
                    $0.dateDecodingStrategy = .millisecondsSince1970
                }
            ),
            Strategies(
                description: "seconds since 1970, custom data",
                encode: {
                    $0.dateEncodingStrategy = .secondsSince1970;
                    $0.dataEncodingStrategy = .custom { data, encoder in
                        var container = encoder.singleValueContainer()
                        try container.encode(data.map { String($0, radix: 16) }.joined(separator: ":"))
                    }
                },
                decode: {
                    $0.dateDecodingStrategy = .secondsSince1970;
                    $0.dataDecodingStrategy = .custom { decoder in
                        let text = try decoder.singleValueContainer().decode(String.self)
                        return Data(text.split(separator: ":").compactMap { UInt8($0, radix: 16) })
                    }
                }
            ),
        ]

        @Test("generated records: the same value under each strategy set", arguments: strategies)
        func generatedRecords(strategies: Strategies) async throws {
            let differential = JSONDifferential(configure: strategies.decode)
            await propertyCheck(count: 1500, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                await Task.yield()  // let the suites on the other thread run
                let encoder = JSONEncoder()
                strategies.encode(encoder)
                guard let data = try? encoder.encode(Self.record(seed: seed)) else { return }
                differential.expectAgreement(Record.self, data)
            }
        }

        @Test("mutated records: the same error case and coding path as JSONDecoder", arguments: strategies)
        func mutatedRecords(strategies: Strategies) async throws {
            let differential = JSONDifferential(configure: strategies.decode)
            await propertyCheck(count: 3000, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                await Task.yield()  // let the suites on the other thread run
                let encoder = JSONEncoder()
                strategies.encode(encoder)
                guard let data = try? encoder.encode(Self.record(seed: seed)),
                    let tree = try? JSONDecoder().decode(JSONValue.self, from: data)
                else { return }
                var random = SeededRandom(state: seed ^ 0x5DEE_CE66)
                let mutated = Self.mutate(tree, &random, depth: 0)
                guard let bytes = try? JSONEncoder().encode(mutated) else { return }
                differential.expectAgreement(Record.self, bytes)
            }
        }

        /// `value` with one member or element somewhere replaced, removed or turned into another type.
        static func mutate(_ value: JSONValue, _ random: inout SeededRandom, depth: Int) -> JSONValue {
            let descend = depth < 4 && Int.random(in: 0..<3, using: &random) > 0
            switch value {
            case .object(var members) where descend && !members.isEmpty:
                let keys = members.keys.sorted()
                let key = keys[Int.random(in: 0..<keys.count, using: &random)]
                if Int.random(in: 0..<5, using: &random) == 0 {
                    members[key] = nil
                } else if let member = members[key] {
                    members[key] = mutate(member, &random, depth: depth + 1)
                }
                return .object(members)
            case .array(var elements) where descend && !elements.isEmpty:
                let index = Int.random(in: 0..<elements.count, using: &random)
                elements[index] = mutate(elements[index], &random, depth: depth + 1)
                return .array(elements)
            default:
                let replacements: [JSONValue] = [
                    .null, .bool(true), .int(-1), .int(300), .int(Int.max), .double(1.5), .double(1e300), .double(-0.0),
                    .string(""), .string("x"), .string("2024-05-01T12:30:00Z"), .string("AAEC"), .array([]), .array([.int(1)]),
                    // Objects of one member: with two wrong members in a dictionary, which one
                    // JSONDecoder reports first follows its hash order, which changes every run.
                    .object([:]), .object(["name": "n"]), .object(["rank": 1]),
                ]
                return replacements[Int.random(in: 0..<replacements.count, using: &random)]
            }
        }

        @Test("the example app's payloads decode to the same models")
        func examplePayloads() throws {
            let user = User(id: 42, email: "ana@example.com", name: "Ana \"the\" Author ✍️")
            let friends = (1...100).map { User(id: $0, email: $0 % 3 == 0 ? nil : "user\($0)@example.com", name: $0 % 5 == 0 ? nil : "Friend \($0)") }
            let encoder = JSONEncoder()
            JSONDifferential().expectAgreement(User.self, try encoder.encode(user))
            JSONDifferential().expectAgreement([User].self, try encoder.encode(friends))

            let page = """
                {"page": 1, "total_results": 1000, "total_pages": 50, "results": [\((1...20).map(Self.movie).joined(separator: ","))]}
                """
            JSONDifferential { $0.keyDecodingStrategy = .convertFromSnakeCase }
                .expectAgreement(MovieApiResponse.self, Data(page.utf8))
        }

        /// One movie as TheMovieDB writes it.
        static func movie(_ id: Int) -> String {
            """
            {"id": \(id), "title": "Movie \(id)", "overview": "A story\\nwith \\"quotes\\" and \\u00e9", "release_date": "2024-05-01",
             "vote_average": \(Double(id % 100) / 10), "vote_count": \(id * 7), "poster_path": "/p\(id).jpg", "backdrop_path": null,
             "genre_ids": [18, 35, \(id)], "popularity": \(Double(id) * 1.25)}
            """
        }
    }
}

/// A plain coding key for the tests' custom key strategy.
struct JSONKeyForTests: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Every member type apps use against every kind of JSON value: the same value or the same error.
@Suite("UTF8JSONDecoder and JSONDecoder agree on every type against every kind of value")
struct UTF8JSONDecoderTypeMatrixTests {
    struct Member<T: Codable & Equatable>: Codable, Equatable {
        var a: T
    }

    struct Pair: Codable, Equatable {
        var a: Int
        var b: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            a = try container.decode(Int.self)
            b = try container.decode(Int.self)
        }
    }

    static let values = [
        "null", "\"x\"", "\"\"", "1", "0", "-1", "1.5", "1e2", "300", "-0.0", "true", "false", "[]", "[1]", "{}", #"{"a":true}"#,
        "\"2024-05-01T12:30:00Z\"", "\"2024-05-01T12:30:00.250+02:00\"", "\"2024-13-01T00:00:00Z\"", "\"AAEC\"", "\"%%%\"",
        "\"https://example.com/a?b=1\"", "\"3D1E9C2A-8F9B-4E5C-9D7A-1B2C3D4E5F60\"", "12345678901234567890", "1e400",
    ]

    static func check(_ json: String, configure: @escaping @Sendable (JSONDecoder) -> Void = { _ in }) {
        let data = Data(#"{"a":\#(json)}"#.utf8)
        let differential = JSONDifferential(configure: configure)
        differential.expectAgreement(Member<Bool>.self, data)
        differential.expectAgreement(Member<String>.self, data)
        differential.expectAgreement(Member<Int>.self, data)
        differential.expectAgreement(Member<Int8>.self, data)
        differential.expectAgreement(Member<UInt8>.self, data)
        differential.expectAgreement(Member<UInt64>.self, data)
        differential.expectAgreement(Member<Double>.self, data)
        differential.expectAgreement(Member<Float>.self, data)
        differential.expectAgreement(Member<Decimal>.self, data)
        differential.expectAgreement(Member<Member<Bool>>.self, data)
        differential.expectAgreement(Member<[Int]>.self, data)
        differential.expectAgreement(Member<[Int?]>.self, data)
        differential.expectAgreement(Member<[String: Bool]>.self, data)
        differential.expectAgreement(Member<[Int: Bool]>.self, data)
        differential.expectAgreement(Member<Date>.self, data)
        differential.expectAgreement(Member<Data>.self, data)
        differential.expectAgreement(Member<URL>.self, data)
        differential.expectAgreement(Member<UUID>.self, data)
        differential.expectAgreement(Member<Int?>.self, data)
        differential.expectAgreement(Member<String?>.self, data)
        differential.expectAgreement(Member<Member<Int>?>.self, data)
    }

    @Test("with JSONDecoder's default strategies", arguments: values)
    func defaults(json: String) {
        Self.check(json)
    }

    @Test("with ISO 8601 dates, snake case keys and a non-conforming float strategy", arguments: values)
    func strategies(json: String) {
        Self.check(json) {
            $0.dateDecodingStrategy = .iso8601
            $0.keyDecodingStrategy = .convertFromSnakeCase
            $0.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "x", negativeInfinity: "-x", nan: "")
        }
    }

    @Test("with dates in seconds and data as byte arrays", arguments: values)
    func numericDates(json: String) {
        Self.check(json) {
            $0.dateDecodingStrategy = .secondsSince1970
            $0.dataDecodingStrategy = .deferredToData
        }
    }

    @Test("arrays: null elements, wrong elements and reading past the end")
    func arrays() {
        let differential = JSONDifferential()
        differential.expectAgreement([Int].self, Data("[1,null]".utf8))
        differential.expectAgreement([Int].self, Data(#"[1,"x"]"#.utf8))
        differential.expectAgreement([Member<Int>].self, Data(#"[{"a":1},{"b":1}]"#.utf8))
        differential.expectAgreement(Pair.self, Data("[1]".utf8))
        differential.expectAgreement(Pair.self, Data("[1,2,3]".utf8))
        differential.expectAgreement(Pair.self, Data("{}".utf8))
        differential.expectAgreement([[Int]].self, Data("[[1],[2,[3]]]".utf8))
    }
}
