import Courier
import CourierJSON
import Foundation
import PropertyBased
import TestSupport
import Testing

extension GeneratedInputTests {
    /// Lists of objects of one type and of short strings: the decoder checks first where a key's
    /// member was found in the type's last object, and copies a short string it read before. Here
    /// one object's layout differs from the last one's (members moved, missing, repeated, renamed,
    /// nested values of other sizes), and strings of up to 16 bytes repeat or differ by a byte.
    @Suite("UTF8JSONDecoder reads each object of a list as JSONDecoder does, whatever the last one looked like", .serialized)
    struct UTF8JSONDecoderRepeatedShapesTests {
        typealias KeyScript = UTF8JSONDecoderExactnessTests.KeyScript

        static let strategies: [JSONDifferential] = [
            JSONDifferential(comparesTypes: true),
            JSONDifferential(configure: { $0.keyDecodingStrategy = .convertFromSnakeCase }, comparesTypes: true),
            JSONDifferential(configure: { $0.keyDecodingStrategy = .custom { path in path.last ?? JSONKeyForTests("") } }, comparesTypes: true),
        ]

        /// A value for a member: a number, null, a string, or an object or array whose own member
        /// names may be the outer object's, at the entries where the outer names were last time.
        static func value(_ offset: Int, using random: inout SeededRandom) -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: return "null"
            case 1: return "\"s\""
            case 2:
                let names = UTF8JSONDecoderExactnessTests.writtenNames
                let inner = (0..<Int.random(in: 0...3, using: &random)).map { _ in "\"\(names[Int.random(in: 0..<names.count, using: &random)])\":\(offset)" }
                return "{\(inner.joined(separator: ","))}"
            case 3: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { "\($0)" }.joined(separator: ",") + "]"
            default: return "\(offset)"
            }
        }

        @Test("generated lists of objects asked one key order: members moved, missing, repeated or nested differently from object to object, under each key strategy")
        func generatedLists() async {
            await propertyCheck(count: 600, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                let written = UTF8JSONDecoderExactnessTests.writtenNames
                let asked = UTF8JSONDecoderExactnessTests.askedNames
                let order = (0..<Int.random(in: 1...12, using: &random)).map { _ in "\"\(asked[Int.random(in: 0..<asked.count, using: &random)])\"" }
                // The first object's layout, then each one changed from the last a little or a lot.
                var names = (0..<Int.random(in: 0...20, using: &random)).map { _ in written[Int.random(in: 0..<written.count, using: &random)] }
                var objects: [String] = []
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: names.shuffle(using: &random)
                    case 1: if !names.isEmpty { names.remove(at: Int.random(in: 0..<names.count, using: &random)) }
                    case 2: names.insert(written[Int.random(in: 0..<written.count, using: &random)], at: Int.random(in: 0...names.count, using: &random))
                    default: break
                    }
                    var members = names.enumerated().map { offset, name in "\"\(name)\":\(Self.value(offset, using: &random))" }
                    members.insert("\"order\":[\(order.joined(separator: ","))]", at: Int.random(in: 0...members.count, using: &random))
                    objects.append("{\(members.joined(separator: ","))}")
                }
                let data = Data("[\(objects.joined(separator: ","))]".utf8)
                for differential in Self.strategies {
                    differential.expectAgreement([KeyScript].self, data)
                    differential.expectAgreement([EnumKeyScript].self, data)
                }
            }
        }

        /// ``KeyScript`` with the keys of an enumeration: keys of a few plain bytes, which the
        /// decoder also remembers by their bits, asked in an order that changes from object to object.
        struct EnumKeyScript: Decodable, Equatable {
            enum Key: String, CodingKey {
                case a, b, c, a_b, aB, _a, a_, user_id, userId, A, zz, order
                case precomposed = "\u{E9}"
                case decomposed = "e\u{301}"
            }

            var log: [String] = []

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                log = try KeyScript.read(try container.decode([String].self, forKey: .order), in: container)
            }
        }

        struct Pair: Decodable, Equatable {
            let ab: Int
            let cd: Int
        }

        @Test(
            "a key remembered with the name it was found under: that name moved, renamed to another of its length, or written twice in the next object",
            arguments: [
                #"[{"ab":1,"cd":2},{"cd":3,"ab":4},{"ab":5,"xy":0,"cd":6},{"cd":7,"ab":8,"ab":9},{"ab":10,"cd":11,"cd":12}]"#,
                #"[{"ab":1,"cd":2},{"ab":3,"cd":4},{"xy":0,"cd":5,"ab":6},{"ab":7,"cd":8},{"cd":9,"ab":10,"cd":11}]"#,
                #"[{"ab":1,"cd":2},{"ab":3,"cx":4,"cd":5},{"ab":6,"cd":7}]"#,
                #"[{"ab":1,"cd":2},{"ab":3,"c\u0064":4},{"ab":5,"cd":6}]"#,
            ])
        func rememberedKeys(json: String) {
            for differential in Self.strategies {
                differential.expectAgreement([Pair].self, Data(json.utf8))
            }
        }

        /// A key of eight plain bytes, its string made from them.
        struct IndexKey: CodingKey {
            let index: Int
            var stringValue: String { "k\(index)" }
            var intValue: Int? { nil }
            init(index: Int) { self.index = index }
            init?(stringValue: String) {
                guard stringValue.hasPrefix("k"), let index = Int(stringValue.dropFirst()) else { return nil }
                self.index = index
            }
            init?(intValue: Int) { nil }
        }

        /// Members `k0`, `k1` and `k2`, each there or not.
        struct Indexed: Decodable, Equatable {
            var values: [Int?]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: IndexKey.self)
                values = try (0..<3).map { try container.decodeIfPresent(Int.self, forKey: IndexKey(index: $0)) }
            }
        }

        @Test("keys of eight bytes remembered as synthesized ones are: members moved, missing or repeated")
        func rememberedWordKeys() {
            let json = #"[{"k0":1,"k1":2,"k2":3},{"k2":4,"k0":5},{"k0":6,"k1":7,"k1":8,"k2":9},{"k1":10,"k0":11,"k2":12},{"k0":13,"k1":14,"k2":15}]"#
            for differential in Self.strategies {
                differential.expectAgreement([Indexed].self, Data(json.utf8))
            }
        }

        /// A synthesized type whose keys are asked in declaration order, nested in itself.
        struct Node: Codable, Equatable {
            var id: Int
            var name: String?
            var user_id: Int?
            var children: [Node]?
            var tag: String
        }

        @Test("generated trees of one synthesized type, members in any order, some missing or null, under each key strategy")
        func generatedTrees() async {
            func node(_ depth: Int, using random: inout SeededRandom) -> String {
                var members = ["\"id\":\(Int.random(in: 0..<100, using: &random))", "\"tag\":\"t\(Int.random(in: 0..<3, using: &random))\""]
                if Bool.random(using: &random) { members.append(Bool.random(using: &random) ? "\"name\":null" : "\"name\":\"n\"") }
                if Bool.random(using: &random) { members.append(Bool.random(using: &random) ? "\"user_id\":7" : "\"userId\":8") }
                if depth < 3, Bool.random(using: &random) {
                    let children = (0..<Int.random(in: 0...3, using: &random)).map { _ in node(depth + 1, using: &random) }
                    members.append("\"children\":[\(children.joined(separator: ","))]")
                }
                if Int.random(in: 0..<6, using: &random) == 0 { members.append("\"id\":-1") }
                if Int.random(in: 0..<3, using: &random) != 0 { members.shuffle(using: &random) }
                return "{\(members.joined(separator: ","))}"
            }
            await propertyCheck(count: 600, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                let list = (0..<Int.random(in: 1...8, using: &random)).map { _ in node(0, using: &random) }
                let data = Data("[\(list.joined(separator: ","))]".utf8)
                for differential in Self.strategies {
                    differential.expectAgreement([Node].self, data)
                }
            }
        }

        @Test("generated lists of short strings, repeated or a byte apart, up to the last byte of the text")
        func generatedShortStrings() async {
            let pieces = ["a", "b", "ab", "é", "😀", " ", "\\n", "\\u0041", "0123456789"]
            await propertyCheck(count: 400, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                var random = SeededRandom(state: seed)
                var strings: [String] = []
                for _ in 0..<Int.random(in: 0...300, using: &random) {
                    if !strings.isEmpty, Bool.random(using: &random) {
                        strings.append(strings[Int.random(in: 0..<strings.count, using: &random)])
                    } else {
                        let count = Int.random(in: 0...5, using: &random)
                        strings.append((0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined())
                    }
                }
                let data = Data("[\(strings.map { "\"\($0)\"" }.joined(separator: ","))]".utf8)
                JSONDifferential(comparesTypes: true).expectAgreement([String].self, data)
                JSONDifferential(comparesTypes: true).expectAgreement([[String: String]].self, Data("[\(strings.map { "{\"k\":\"\($0)\"}" }.joined(separator: ","))]".utf8))
            }
        }
    }
}
