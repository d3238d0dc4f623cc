import Testing

@testable import Courier

@Suite("Splitting JSON Lines and JSON text sequences")
struct JSONLinesSplitterTests {
    static func lines(_ chunks: [String], limit: Int = 1024) throws -> [JSONLinesSplitter.Line] {
        var splitter = JSONLinesSplitter(maximumLineSize: limit)
        var lines: [JSONLinesSplitter.Line] = []
        for chunk in chunks { lines += try splitter.feed(Array(chunk.utf8)) }
        if let last = splitter.finish() { lines.append(last) }
        return lines
    }

    @Test("lines in any chunking, CRLF or LF, blank lines skipped, the last without a newline kept")
    func lines() throws {
        let text = "{\"a\":1}\r\n\n  \n{\"a\":2}\n{\"a\":3}"
        let expected = [
            JSONLinesSplitter.Line(number: 1, bytes: Array(#"{"a":1}"#.utf8)),
            JSONLinesSplitter.Line(number: 4, bytes: Array(#"{"a":2}"#.utf8)),
            JSONLinesSplitter.Line(number: 5, bytes: Array(#"{"a":3}"#.utf8)),
        ]
        #expect(try Self.lines([text]) == expected)
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            let chunks = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(try Self.lines(chunks) == expected, "cut at \(cut)")
        }
    }

    @Test("RFC 7464: each text starts with RS")
    func textSequences() throws {
        let lines = try Self.lines(["\u{1E}{\"a\":1}\n\u{1E}[2]\n\u{1E}3\u{1E}\"four\"\n"])
        #expect(lines.map { String(decoding: $0.bytes, as: UTF8.self) } == [#"{"a":1}"#, "[2]", "3", #""four""#])
    }

    @Test("a line over the limit is refused with its number")
    func oversize() {
        let error = #expect(throws: CourierError.self) { try Self.lines(["[1]\n[2]\n" + String(repeating: "7", count: 100)], limit: 64) }
        #expect(error?.kind == .streamElementTooLarge)
        #expect(error?.failureReason?.contains("Line 3") == true)
    }
}
