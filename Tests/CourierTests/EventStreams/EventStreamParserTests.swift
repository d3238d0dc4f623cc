import Testing

@testable import Courier

@Suite("Reading text/event-stream as the HTML standard says")
struct EventStreamParserTests {
    typealias Item = EventStreamParser.Item

    /// Feeds `chunks` in order and collects every item.
    static func items(_ chunks: [String], limit: Int = 1 << 20) throws -> [Item] {
        var parser = EventStreamParser(maximumEventSize: limit)
        var items: [Item] = []
        for chunk in chunks { items += try parser.feed(Array(chunk.utf8)) }
        return items
    }

    @Test("lines end in LF, CR or CRLF; a blank line ends each event", arguments: ["\n", "\r", "\r\n"])
    func lineEnds(end: String) throws {
        let text = "data: one\(end)\(end)data: two\(end)\(end)"
        #expect(try Self.items([text]) == [.event(type: "message", data: "one", id: nil, retry: nil), .event(type: "message", data: "two", id: nil, retry: nil)])
    }

    @Test("a CRLF split across chunks is one line end, not two (no empty event, no merged events)")
    func splitCRLF() throws {
        let items = try Self.items(["data: a\r", "\ndata: b\r", "\n\r", "\ndata: c\r\n\r\n"])
        #expect(items == [.event(type: "message", data: "a\nb", id: nil, retry: nil), .event(type: "message", data: "c", id: nil, retry: nil)])
    }

    @Test("every split of a stream into two chunks reads the same events")
    func everySplit() throws {
        let text = "\u{FEFF}: hello\r\nevent: tick\r\ndata: {\"n\":1}\r\ndata:  spaced\r\nid: 7\r\nretry: 1500\r\n\r\ndata\n\nid\ndata: x\n\n"
        let whole = try Self.items([text])
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            var parser = EventStreamParser(maximumEventSize: 1 << 20)
            let items = try parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...])
            #expect(items == whole, "cut at \(cut)")
        }
        #expect(
            whole == [
                .comment(" hello"),
                .event(type: "tick", data: "{\"n\":1}\n spaced", id: "7", retry: .milliseconds(1500)),
                .event(type: "message", data: "", id: "7", retry: nil),
                .event(type: "message", data: "x", id: nil, retry: nil),
            ])
    }

    @Test("data lines are joined with LF; an event with no data is not dispatched")
    func multiLineData() throws {
        let items = try Self.items(["data: first\ndata: second\ndata\ndata:third\n\nevent: empty\n\n"])
        #expect(items == [.event(type: "message", data: "first\nsecond\n\nthird", id: nil, retry: nil)])
    }

    @Test("the last event ID persists, an empty id clears it, one with NUL is ignored")
    func lastEventID() throws {
        var parser = EventStreamParser(maximumEventSize: 1024, lastEventID: "0")
        #expect(try parser.feed(Array("data: a\n\n".utf8)) == [.event(type: "message", data: "a", id: "0", retry: nil)])
        _ = try parser.feed(Array("id: 5\ndata: b\n\ndata: c\n\n".utf8))
        #expect(parser.lastEventID == "5")
        _ = try parser.feed(Array("id: 6\u{0}\ndata: d\n\n".utf8))
        #expect(parser.lastEventID == "5")
        #expect(try parser.feed(Array("id\ndata: e\n\n".utf8)) == [.event(type: "message", data: "e", id: nil, retry: nil)])
        #expect(parser.lastEventID == nil)
        _ = try parser.feed(Array("id: 9\n".utf8))
        #expect(parser.lastEventID == nil, "an id counts once its event ends")
        _ = try parser.feed(Array("\n".utf8))
        #expect(parser.lastEventID == "9", "even an event without data sets it")
    }

    @Test("retry takes ASCII digits only, and bounds any number of them")
    func retry() throws {
        var parser = EventStreamParser(maximumEventSize: 1 << 16)
        for ignored in ["retry: 1.5", "retry: -1", "retry: 1e3", "retry:", "retry: ٣", "retry: 12 "] {
            _ = try parser.feed(Array("\(ignored)\n".utf8))
            #expect(parser.retry == nil, "\(ignored)")
        }
        _ = try parser.feed(Array("retry: 250\n".utf8))
        #expect(parser.retry == .milliseconds(250))
        _ = try parser.feed(Array("retry: \(String(repeating: "9", count: 400))\n".utf8))
        #expect(parser.retry == ServerDelay.longest)
    }

    @Test("an event over the limit is refused with its own error kind; comments do not count")
    func oversizeEvent() throws {
        let error = #expect(throws: CourierError.self) { try Self.items(["data: \(String(repeating: "x", count: 100))\n"], limit: 64) }
        #expect(error?.kind == .streamElementTooLarge)
        let split = #expect(throws: CourierError.self) { try Self.items(["data: \(String(repeating: "x", count: 40))\n", "data: \(String(repeating: "y", count: 40))\n\n"], limit: 64) }
        #expect(split?.kind == .streamElementTooLarge)
        let fine = try Self.items([": \(String(repeating: "c", count: 50))\n", ": \(String(repeating: "c", count: 50))\n", "data: ok\n\n"], limit: 64)
        #expect(fine.last == .event(type: "message", data: "ok", id: nil, retry: nil))
    }

    @Test("an event open when the stream ends is dropped; field names are case-sensitive")
    func unfinished() throws {
        #expect(try Self.items(["Data: no\nDATA: no\n\ndata: cut off"]).isEmpty)
    }
}
