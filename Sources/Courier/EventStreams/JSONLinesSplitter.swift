/// Splits a JSON Lines (or RFC 7464 JSON text sequence) body into its texts, chunk by chunk, in
/// memory bounded by the longest line it accepts: a pure value, no I/O.
///
/// A line ends at LF (a CR before it is dropped); for JSON text sequences an RS (0x1E) also starts
/// a new text. Blank lines are skipped, and a last line without a line end is still a line.
struct JSONLinesSplitter {
    /// One text and the number of the line it was on, counting from 1.
    struct Line: Equatable {
        var number: Int
        var bytes: [UInt8]
    }

    /// The most bytes one line may take.
    let maximumLineSize: Int
    private var line: [UInt8] = []
    /// The number of the line being read.
    private var number = 1

    init(maximumLineSize: Int) {
        self.maximumLineSize = maximumLineSize
    }

    /// Reads the next piece of the body.
    /// - Returns: The lines it completed.
    /// - Throws: ``CourierError/Kind/streamElementTooLarge`` for a line over the limit.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(CourierError) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            switch byte {
            case 0x0A:
                if let line = endLine() { lines.append(line) }
                number += 1
            case 0x1E:
                if let line = endLine() { lines.append(line) }
            default:
                guard line.count < maximumLineSize else {
                    throw CourierError(.streamElementTooLarge, message: "Line \(number) is longer than \(maximumLineSize) bytes.")
                }
                line.append(byte)
            }
        }
        return lines
    }

    /// The last line, when the body ended without a line end after it.
    mutating func finish() -> Line? {
        endLine()
    }

    private mutating func endLine() -> Line? {
        defer { line.removeAll(keepingCapacity: line.capacity <= 65536) }
        if line.last == 0x0D { line.removeLast() }
        guard line.contains(where: { !Self.isSpace($0) }) else { return nil }
        return Line(number: number, bytes: line)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
