import Courier
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import CourierJSON

extension GeneratedInputTests {
    /// Random and mutated byte strings through `UTF8JSONDecoder`: never a crash, and the same
    /// accept/reject verdict as Foundation's `JSONSerialization`, except where Foundation departs
    /// from RFC 8259 (it accepts trailing commas). Accepted texts decode to the same `JSONValue` as
    /// with `JSONDecoder`.
    ///
    /// 100,000 inputs per `swift test`; `COURIER_JSON_FUZZ_INPUTS=1000000` for the long form (see
    /// CONTRIBUTING.md).
    @Suite("Fuzzing the JSON decoder: random and mutated inputs", .serialized)
    struct JSONFuzzTests {
        static let inputs = ProcessInfo.processInfo.environment["COURIER_JSON_FUZZ_INPUTS"].flatMap(Int.init) ?? 100_000

        /// Valid texts the mutations start from.
        static let corpus: [String] = [
            #"{"id":42,"email":"ana@example.com","name":"Ana"}"#,
            #"[{"id":1,"name":null},{"id":2,"tags":["a","b"],"score":-0.5e-3}]"#,
            #"{"page":1,"results":[{"title":"M\u00e9 \ud83c\udfac","vote_average":7.25,"genre_ids":[18,35]}],"total_pages":50}"#,
            #"[true,false,null,0,-0,1e10,1E-2,"\"\\\/\b\f\n\r\t",[],{},[[[]]],{"":{"":[]}}]"#,
            #" { "a" : [ 1 , 2.5 , "x" ] , "b" : { "c" : null } } "#,
            #""日本語 \u2028 text""#,
            "123456789012345678901234567890",
            #"{"nested":{"deeper":{"deepest":[1,[2,[3,[4]]]]}}}"#,
        ]

        /// Bytes that matter to a JSON parser, and some that must never appear unescaped.
        static let interesting: [UInt8] = Array("{}[]:,\"\\/ \t\r\n0123456789-+.eEtrufalsn".utf8) + [0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]

        static func input(seed: UInt64) -> [UInt8] {
            var random = SeededRandom(state: seed)
            if Int.random(in: 0..<4, using: &random) == 0 {
                // Random bytes, mostly JSON's own.
                return (0..<Int.random(in: 0...40, using: &random)).map { _ in
                    interesting.randomElement(using: &random) ?? 0x20
                }
            }
            var bytes = Array((corpus.randomElement(using: &random) ?? "").utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0 where !bytes.isEmpty: bytes[position] = interesting.randomElement(using: &random) ?? 0x20
                case 1: bytes.insert(interesting.randomElement(using: &random) ?? 0x20, at: position)
                case 2 where !bytes.isEmpty: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...6, using: &random)))
                case 3 where !bytes.isEmpty:
                    let end = min(bytes.count, position + Int.random(in: 1...12, using: &random))
                    bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
                default: bytes[position...].reverse()
                }
            }
            return bytes
        }

        /// Foundation reads texts with NUL bytes or a UTF-16/32 byte-order mark as UTF-16 or UTF-32;
        /// Courier reads UTF-8 only. Those inputs are compared for not crashing alone.
        static func foundationReadsAsUTF8(_ bytes: [UInt8]) -> Bool {
            !bytes.contains(0) && !(bytes.count >= 2 && (bytes[0] == 0xFE || bytes[0] == 0xFF))
        }

        @Test("random and mutated bytes: no crash, and JSONSerialization's verdict")
        func acceptReject() async {
            let disagreements = LockedBox(0)
            await propertyCheck(count: Self.inputs, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
                await Task.yield()  // let the suites on the other thread run
                let bytes = Self.input(seed: seed)
                let data = Data(bytes)
                let ours = Result { try UTF8JSONDecoder().decode(JSONValue.self, from: data) }
                guard Self.foundationReadsAsUTF8(bytes) else { return }
                let foundationAccepts = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
                switch (ours, foundationAccepts) {
                case (.success(let value), true):
                    let theirs = try? JSONDecoder().decode(JSONValue.self, from: data)
                    #expect(theirs == value, "different values for \(String(decoding: bytes, as: UTF8.self))")
                case (.failure, false):
                    break
                case (.failure(let error), true):
                    // Only RFC 8259's refusal of trailing commas may part the two.
                    let reason = ((error as? DecodingError).flatMap(Self.context)?.underlyingError as? JSONSyntaxError)?.reason
                    if reason != .trailingComma {
                        disagreements.increment()
                        Issue.record("Foundation accepts, Courier refuses (\(String(describing: reason))): \(String(decoding: bytes, as: UTF8.self)) \(bytes)")
                    }
                case (.success, false):
                    disagreements.increment()
                    Issue.record("Courier accepts, Foundation refuses: \(String(decoding: bytes, as: UTF8.self)) \(bytes)")
                }
            }
            #expect(disagreements.value == 0)
        }

        static func context(_ error: DecodingError) -> DecodingError.Context? {
            if case .dataCorrupted(let context) = error { return context }
            return nil
        }
    }
}
