import FuzzInput

@testable import Courier

/// Any `text/event-stream` body, cut into chunks where the leading bytes say, through the parser
/// every event stream uses: events, comments or `streamElementTooLarge`, never a trap, and no
/// event larger than the limit allows (it counts bytes as received; each invalid UTF-8 byte reads
/// as U+FFFD, three bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let limit = Int(input.byte()) * 16 + 1
    let cut = Int(input.byte())
    let bytes = input.rest
    var parser = EventStreamParser(maximumEventSize: limit)
    let middle = min(cut, bytes.count)
    for chunk in [bytes[..<middle], bytes[middle...]] {
        guard let items = try? parser.feed(chunk) else { return 0 }
        for case .event(_, let data, _, _) in items where data.utf8.count > 3 * limit {
            fatalError("an event of \(data.utf8.count) bytes passed a limit of \(limit)")
        }
    }
    _ = parser.startingOver()
    return 0
}
