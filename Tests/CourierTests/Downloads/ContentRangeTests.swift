import Testing

@testable import Courier

@Suite("Content-Range is read as RFC 9110 writes it, and nothing else")
struct ContentRangeTests {
    @Test(
        "valid values",
        arguments: [
            ("bytes 0-499/1234", ContentRange.bytes(first: 0, last: 499, completeLength: 1234)),
            ("bytes 500-999/*", .bytes(first: 500, last: 999, completeLength: nil)),
            ("BYTES 7-7/8", .bytes(first: 7, last: 7, completeLength: 8)),
            ("  bytes 1-2/3\t", .bytes(first: 1, last: 2, completeLength: 3)),
            ("bytes */1234", .unsatisfied(completeLength: 1234)),
            ("bytes 0-9223372036854775806/9223372036854775807", .bytes(first: 0, last: 9_223_372_036_854_775_806, completeLength: 9_223_372_036_854_775_807)),
        ])
    func valid(text: String, expected: ContentRange) {
        #expect(ContentRange.parse(text) == expected)
    }

    @Test(
        "invalid values are no range",
        arguments: [
            "", "bytes", "bytes ", "bytes 5-4/10", "bytes 0-10/10", "bytes -1-5/10", "bytes 0-5", "bytes 0-5/", "bytes */*",
            "items 0-5/10", "bytes=0-5/10", "bytes 0-5/10, bytes 6-7/10", "bytes 0 -5/10", "bytes 0-92233720368547758070/1",
            "bytes 0-5/10x", "bytes\u{0}0-5/10", "bytes 0x1-5/10", "bytes +0-5/10",
        ])
    func invalid(text: String) {
        #expect(ContentRange.parse(text) == nil)
    }

    @Test("a range knows its length")
    func count() {
        #expect(ContentRange.parse("bytes 10-19/100")?.count == 10)
        #expect(ContentRange.parse("bytes */100")?.count == nil)
        #expect(ContentRange.parse("bytes */100")?.completeLength == 100)
    }
}
