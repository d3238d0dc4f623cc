import Foundation
import HTTPTypes
import PropertyBased
import Testing

@testable import Courier

extension GeneratedInputTests {
    /// Generated inputs for the code that turns app and server data into bytes and back. Every run
    /// draws 112,000 new inputs (seeds printed on failure; pin one with `.fixedSeed`); see
    /// CONTRIBUTING.md for running it alone.
    // Serialized: one core for the fuzzing, the other for the suites that measure time.
    @Suite("Fuzzing: encoders, paths and error bodies on generated input", .serialized)
    struct FuzzTests {
        /// Characters that break naive encoders: delimiters, controls, NUL, multi-scalar graphemes.
        static let hostile: [Character] = Array(
            " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~\u{0}\t\r\nAz09éü日本🎬👩‍👩‍👧e\u{301}\u{200F}\u{FEFF}\u{7F}"
        )
        static let hostileCharacter = Gen<Character?>.element(of: hostile).compactMap { $0 }
        /// Any Unicode scalar of the Basic Multilingual Plane below the surrogates.
        static let anyScalar = Gen<UInt32>.value(in: 0...0xD7FF).compactMap(Unicode.Scalar.init).map(Character.init)
        static let character = Gen<Character>.oneOf(hostileCharacter.eraseToAny(), anyScalar.eraseToAny())
        static let text = character.string(of: 0...12)
        static let pairs = PropertyBased.zip(text, text).array(of: 0...6)

        /// What Foundation's percent-decoding gives back for `text`: it drops a leading byte-order mark.
        static func asFoundationReadsIt(_ text: String) -> String {
            text.hasPrefix("\u{FEFF}") ? String(text.unicodeScalars.dropFirst()) : text
        }

        /// The names and values parameters hold (a repeated name keeps its last value, in first place).
        static func expected(_ parameters: QueryParameters) -> [(String, String)] {
            parameters.items.map { item in
                guard case .text(let value) = item.value else { return (item.name, "") }
                return (asFoundationReadsIt(item.name), asFoundationReadsIt(value))
            }
        }

        static func encodedIsPlainASCII(_ encoded: String, allowing extra: Set<Character>) -> Bool {
            encoded.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~%".contains($0) || extra.contains($0)) }
        }

        @Test("query strings: only unreserved characters and escapes, and URLComponents reads back every name and value")
        func queryRoundTrip() async {
            await propertyCheck(count: 30_000, input: Self.pairs) { pairs in
                await Task.yield()  // let the suites on the other thread run
                let parameters = QueryParameters(pairs.map { (name: $0.0, value: QueryValue.text($0.1)) })
                let encoded = QueryStringEncoder().encode(parameters)
                #expect(Self.encodedIsPlainASCII(encoded, allowing: ["&", "="]), "\(encoded)")
                let items = URLComponents(string: "https://example.com/?" + encoded)?.queryItems ?? []
                let expected = Self.expected(parameters)
                #expect(encoded.isEmpty == expected.isEmpty)
                if !expected.isEmpty {
                    #expect(items.map(\.name) == expected.map(\.0))
                    #expect(items.map { $0.value ?? "" } == expected.map(\.1))
                }
            }
        }

        @Test("form bodies: spaces as +, and a form parser reads back every name and value")
        func formRoundTrip() async {
            await propertyCheck(count: 30_000, input: Self.pairs) { pairs in
                await Task.yield()  // let the suites on the other thread run
                let parameters = QueryParameters(pairs.map { (name: $0.0, value: QueryValue.text($0.1)) })
                let encoded = QueryStringEncoder().encode(parameters, for: .formBody)
                #expect(Self.encodedIsPlainASCII(encoded, allowing: ["&", "=", "+"]), "\(encoded)")
                // application/x-www-form-urlencoded as browsers and servers read it.
                let fields = encoded.isEmpty ? [] : encoded.split(separator: "&", omittingEmptySubsequences: false)
                let decoded = fields.map { field -> (String?, String?) in
                    let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
                    }
                    return (parts.first ?? nil, parts.count > 1 ? parts[1] : "")
                }
                let expected = Self.expected(parameters)
                #expect(decoded.map(\.0) == expected.map { Optional($0.0) })
                #expect(decoded.map(\.1) == expected.map { Optional($0.1) })
            }
        }

        @Test("paths: any interpolated value stays one segment under the base path and decodes back to itself; dot segments are refused")
        func pathSegments() async throws {
            let client = Client(baseURL: "https://api.example.com/api/v1")
            await propertyCheck(count: 22_000, input: Self.text) { value in
                await Task.yield()  // let the suites on the other thread run
                let path: Path = "users/\(value)/profile"
                let prepared: PreparedRequest
                do {
                    prepared = try client.prepare(Request<Data>(.get, path))
                } catch {
                    // A segment that is exactly `.` or `..` would climb out of the base path.
                    #expect(value == "." || value == "..", "\(value.debugDescription) was refused: \(error)")
                    #expect((error as? CourierError)?.kind == .invalidRequest)
                    return
                }
                #expect(value != "." && value != "..")
                let requestPath = prepared.request.path ?? ""
                #expect(requestPath.hasPrefix("/api/v1/users/") && requestPath.hasSuffix("/profile"), "\(requestPath)")
                let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false)
                #expect(segments.count == 6, "\(requestPath)")
                if segments.count == 6 {
                    #expect(segments[4].removingPercentEncoding == Self.asFoundationReadsIt(value))
                }
                #expect(!requestPath.contains("?") && !requestPath.contains("#"))
            }
        }

        @Test("error bodies: arbitrary bytes never crash the parser; a JSON message always comes back")
        func errorBodies() async {
            let response = HTTPResponse(status: .internalServerError, headerFields: [.contentType: "application/json"])
            let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...64)
            await propertyCheck(count: 15_000, input: bytes) { bytes in
                await Task.yield()  // let the suites on the other thread run
                _ = ErrorBodyFormat.standard.extract(Data(bytes), response)
                _ = ErrorBodyFormat.tmdb.extract(Data(bytes), response)
            }
            // JSON-like fragments reach deeper than random bytes.
            let fragments = Gen<String?>.element(of: ["{", "}", "[", "]", "\"message\"", ":", ",", "\"", "1e999", "-0", "null", "true", "\\u0000", "\\ud800", "{\"error\":{\"message\":"]).compactMap { $0 }
            await propertyCheck(count: 15_000, input: fragments.array(of: 0...12), Self.text) { pieces, message in
                await Task.yield()  // let the suites on the other thread run
                _ = ErrorBodyFormat.standard.extract(Data(pieces.joined().utf8), response)
                let body = (try? JSONEncoder().encode(["message": message, "detail": "ignored"])) ?? Data()
                #expect(ErrorBodyFormat.standard.extract(body, response)?.message == message)
            }
        }
    }
}
