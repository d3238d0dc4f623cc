#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `multipart/form-data` reader fed a chunk at a time, for forms of any size: it keeps only a
/// part's head and the few bytes that may begin a boundary, and hands each part's bytes on as they
/// arrive. Boundaries are found with `memchr` and `memcmp`, so a gigabyte passes quickly even in
/// a debug build.
struct FormParser {
    enum Failure: Error {
        /// A part's header block is longer than ``largestHead``.
        case headTooLarge
        /// A header line without a colon.
        case malformedHead
    }

    /// The longest header block of one part.
    static let largestHead = 16 * 1024

    private enum State {
        /// Before the first boundary.
        case preamble
        /// After a boundary: `--` ends the form, CRLF starts a part.
        case afterBoundary
        case head
        case body
        case epilogue
    }

    /// CRLF, `--` and the boundary: what ends a part's bytes.
    private let delimiter: [UInt8]
    private var state = State.preamble
    /// Bytes received and not yet consumed.
    private var pending: [UInt8]

    /// Whether the closing boundary has been read.
    var isComplete: Bool {
        if case .epilogue = state { return true }
        return false
    }

    /// A parser for a form whose `Content-Type` names `boundary`.
    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // As if the body began with CRLF, so that its first boundary is a delimiter like the rest.
        pending = [13, 10]
    }

    /// Reads the next chunk of the body.
    /// - Parameters:
    ///   - chunk: The bytes, in order.
    ///   - head: Called with a part's header fields when its head ends.
    ///   - body: Called with a part's bytes, in pieces.
    ///   - end: Called when a part ends.
    /// - Throws: ``Failure`` for a malformed head.
    mutating func read(
        _ chunk: UnsafeRawBufferPointer,
        head: ([(name: String, value: String)]) -> Void,
        body: (UnsafeRawBufferPointer) -> Void,
        end: () -> Void
    ) throws {
        pending.append(contentsOf: chunk)
        var consumed = 0
        var state = self.state
        let delimiter = self.delimiter
        defer {
            pending.removeSubrange(0..<consumed)
            self.state = state
        }
        let buffer = pending
        try buffer.withUnsafeBytes { bytes in
            while consumed < bytes.count {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[consumed...])
                switch state {
                case .epilogue:
                    consumed = bytes.count
                case .preamble, .body:
                    let inBody = { if case .body = state { true } else { false } }()
                    if let found = Self.find(delimiter, in: rest) {
                        if inBody {
                            if found > 0 { body(UnsafeRawBufferPointer(rebasing: rest[..<found])) }
                            end()
                        }
                        consumed += found + delimiter.count
                        state = .afterBoundary
                    } else {
                        // Keep what may begin a delimiter; hand on the rest.
                        let safe = max(0, rest.count - (delimiter.count - 1))
                        if inBody, safe > 0 { body(UnsafeRawBufferPointer(rebasing: rest[..<safe])) }
                        consumed += safe
                        return
                    }
                case .afterBoundary:
                    guard rest.count >= 2 else { return }
                    if rest[0] == UInt8(ascii: "-"), rest[1] == UInt8(ascii: "-") {
                        state = .epilogue
                        consumed = bytes.count
                    } else if let lineEnd = Self.find([13, 10], in: rest) {
                        // Transport padding (spaces) may follow a boundary before its CRLF.
                        consumed += lineEnd + 2
                        state = .head
                    } else {
                        guard rest.count < 1024 else { throw Failure.malformedHead }
                        return
                    }
                case .head:
                    guard rest.count >= 2 else { return }
                    if rest[0] == 13, rest[1] == 10 {
                        // A part with no header fields at all: its bytes begin after this CRLF.
                        head([])
                        consumed += 2
                        state = .body
                    } else if let found = Self.find([13, 10, 13, 10], in: rest) {
                        head(try Self.fields(UnsafeRawBufferPointer(rebasing: rest[..<found])))
                        consumed += found + 4
                        state = .body
                    } else {
                        guard rest.count <= Self.largestHead else { throw Failure.headTooLarge }
                        return
                    }
                }
            }
        }
    }

    /// The header fields of a head block (CRLF-separated `Name: value` lines).
    private static func fields(_ block: UnsafeRawBufferPointer) throws -> [(name: String, value: String)] {
        let text = String(decoding: block, as: UTF8.self)
        var fields: [(name: String, value: String)] = []
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformedHead }
            let name = line[..<colon].trimmingSpaces
            let value = line[line.index(after: colon)...].trimmingSpaces
            fields.append((String(name), String(value)))
        }
        return fields
    }

    /// Where `needle` first occurs in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard let base = haystack.baseAddress, !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(needle[0]), last - offset + 1) else { return nil }
            let position = base.distance(to: UnsafeRawPointer(hit))
            let matches = needle.withUnsafeBytes { pattern in
                pattern.baseAddress.map { memcmp(base + position, $0, needle.count) == 0 } ?? false
            }
            if matches { return position }
            offset = position + 1
        }
        return nil
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
