/// A `Content-Range` field value (RFC 9110 §14.4) in bytes: which part of the representation a
/// 206 carries, or, on a 416, how long the representation is.
///
/// It reads server input, so it works on the value's UTF-8 bytes and accepts only what the RFC
/// allows: the unit `bytes` (any case), positions of digits only, a last position not before the
/// first, and a complete length past the last position. Anything else is no range at all.
package enum ContentRange: Sendable, Equatable {
    /// `bytes first-last/length`, with `length` `nil` for `*` (not known to the server).
    case bytes(first: Int64, last: Int64, completeLength: Int64?)
    /// `bytes */length`: the range asked for cannot be satisfied (a 416).
    case unsatisfied(completeLength: Int64)

    /// The byte count the range covers (`last - first + 1`), or `nil` for an unsatisfied range.
    package var count: Int64? {
        guard case .bytes(let first, let last, _) = self else { return nil }
        return last - first + 1
    }

    /// The representation's full length, when the field gives it.
    package var completeLength: Int64? {
        switch self {
        case .bytes(_, _, let length): length
        case .unsatisfied(let length): length
        }
    }

    /// Reads a field value, or returns `nil` when it is not a byte range RFC 9110 allows.
    /// - Parameter text: The field value, e.g. `bytes 500-999/1000`.
    /// - Returns: The range, or `nil`.
    package static func parse(_ text: String) -> ContentRange? {
        var reader = Reader(Array(text.utf8))
        reader.skipSpaces()
        guard reader.consumeUnit(), reader.consume(UInt8(ascii: " ")) else { return nil }
        reader.skipSpaces()
        let range: ContentRange
        if reader.consume(UInt8(ascii: "*")) {
            guard reader.consume(UInt8(ascii: "/")), let length = reader.number() else { return nil }
            range = .unsatisfied(completeLength: length)
        } else {
            guard let first = reader.number(), reader.consume(UInt8(ascii: "-")), let last = reader.number(), last >= first,
                reader.consume(UInt8(ascii: "/"))
            else { return nil }
            if reader.consume(UInt8(ascii: "*")) {
                range = .bytes(first: first, last: last, completeLength: nil)
            } else {
                guard let length = reader.number(), last < length else { return nil }
                range = .bytes(first: first, last: last, completeLength: length)
            }
        }
        reader.skipSpaces()
        return reader.isAtEnd ? range : nil
    }

    /// A cursor over the value's bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// `bytes`, in any case.
        mutating func consumeUnit() -> Bool {
            let unit = Array("bytes".utf8)
            guard bytes.count - index >= unit.count else { return false }
            for (offset, expected) in unit.enumerated() where bytes[index + offset] | 0x20 != expected {
                return false
            }
            index += unit.count
            return true
        }

        /// One or more digits that fit in `Int64`.
        mutating func number() -> Int64? {
            var value: Int64 = 0
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowAdd) = shifted.addingReportingOverflow(Int64(bytes[index] - UInt8(ascii: "0")))
                guard !overflowShift, !overflowAdd else { return nil }
                value = sum
                index += 1
            }
            return index > start ? value : nil
        }
    }
}
