/// Reads a `text/event-stream` body as the WHATWG HTML standard (§9.2.6) says, chunk by chunk, in
/// memory bounded by the largest event it accepts: a pure value, no I/O.
///
/// Lines end in CR, LF or CRLF, and a CRLF may be split across chunks. A blank line ends an event;
/// `data:` lines are joined with LF; a line starting with `:` is a comment; `retry:` takes digits
/// only; `id:` sets the last event ID when its event ends (it persists across events; an empty
/// `id:` clears it, and one containing NUL is ignored). An event still open when the stream ends
/// is dropped, and so is its `id:`.
struct EventStreamParser {
    /// What one chunk produced, in order.
    enum Item: Equatable {
        /// A complete event: its type, its data as text, the last event ID and its `retry:`.
        case event(type: String, data: String, id: String?, retry: Duration?)
        /// A comment line (after the `:`), for a consumer that asked for them.
        case comment(String)
    }

    /// The most bytes one event (every line of it, as received) or one comment may take.
    let maximumEventSize: Int
    /// The last event ID: what a reconnection sends as `Last-Event-ID`. An `id:` field counts
    /// once its event ends (at the blank line), so an event cut off by a dropped connection is
    /// asked for again.
    private(set) var lastEventID: String?
    /// The ID the `id:` fields of the open event have set.
    private var idBuffer: String?
    /// The reconnection delay the server asked for most recently.
    private(set) var retry: Duration?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type: [UInt8] = []
    private var eventRetry: Duration?
    /// Bytes the current event has taken so far, its finished lines and the open one.
    private var eventSize = 0
    /// The last chunk ended in CR: an LF starting the next one belongs to that line end.
    private var afterCR = false
    /// Nothing has been read yet: a byte order mark may come first.
    private var atStart = true

    init(maximumEventSize: Int, lastEventID: String? = nil) {
        self.maximumEventSize = maximumEventSize
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// A parser for the next connection: the last event ID and the retry delay carry over, an
    /// event left half-read does not.
    func startingOver() -> EventStreamParser {
        var next = EventStreamParser(maximumEventSize: maximumEventSize, lastEventID: lastEventID)
        next.retry = retry
        return next
    }

    /// Reads the next piece of the body.
    /// - Returns: The events and comments it completed.
    /// - Throws: ``CourierError/Kind/streamElementTooLarge`` when an event outgrows the limit.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(CourierError) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                if let item = try endLine() { items.append(item) }
            default:
                line.append(byte)
                eventSize += 1
                if eventSize > maximumEventSize { throw Self.tooLarge(limit: maximumEventSize) }
            }
        }
        return items
    }

    static func tooLarge(limit: Int) -> CourierError {
        CourierError(.streamElementTooLarge, message: "The server sent an event larger than \(limit) bytes.")
    }

    private mutating func endLine() throws(CourierError) -> Item? {
        defer { line.removeAll(keepingCapacity: line.capacity <= 4096) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") {
            eventSize -= line.count
            return .comment(String(decoding: line.dropFirst(), as: UTF8.self))
        }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[line.index(after: $0)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            type = Array(value)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
        case "retry":
            if let milliseconds = Self.milliseconds(value) {
                retry = milliseconds
                eventRetry = milliseconds
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> Item? {
        defer {
            data.removeAll(keepingCapacity: data.capacity <= 65536)
            type.removeAll()
            hasData = false
            eventRetry = nil
            eventSize = 0
        }
        lastEventID = idBuffer
        guard hasData else { return nil }
        let name = type.isEmpty ? "message" : String(decoding: type, as: UTF8.self)
        return .event(type: name, data: String(decoding: data, as: UTF8.self), id: lastEventID, retry: eventRetry)
    }

    /// `retry:`'s value: ASCII digits only, any number of them, bounded like every wait a server
    /// asks for.
    private static func milliseconds(_ digits: ArraySlice<UInt8>) -> Duration? {
        guard !digits.isEmpty, digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        var value: Int64 = 0
        for digit in digits {
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
            // Past the longest wait nothing changes: stop before the number can overflow.
            if value > 1_000_000_000_000 { return ServerDelay.longest }
        }
        return min(.milliseconds(value), ServerDelay.longest)
    }
}
