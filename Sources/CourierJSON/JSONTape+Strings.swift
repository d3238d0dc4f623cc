extension JSONTape.Parser {
    /// Most strings are plain ASCII to their closing quote: those are read here, in the
    /// caller's loop; a string with an escape, a control character or a multi-byte sequence
    /// goes on in ``string(from:at:isName:)`` from its first such byte.
    @inline(__always)
    mutating func string(isName: Bool = false) throws(JSONSyntaxError) {
        let start = position &+ 1
        let index = plainRunEnd(from: start)
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            appendString(.string, start: start, end: index, isName: isName)
            position = index &+ 1
            return
        }
        try string(from: start, at: index, isName: isName)
    }

    /// Where the plain ASCII from `index` on ends: eight bytes at a time while eight are left,
    /// straight to the first byte that needs a look (a quote, a backslash, a control byte or
    /// a multi-byte sequence; see `specialBytes`), or to where fewer than eight are left. The
    /// scan keeps its place in a local (a register), not in `position`.
    @inline(__always)
    func plainRunEnd(from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        let end = bytes.count
        while index &+ 8 <= end {
            let special = Self.specialBytes(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            if special != 0 { return index &+ special.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        return index
    }

    /// The entry of a string from `start` to `end` (its closing quote).
    @inline(__always)
    mutating func appendString(_ kind: Kind, start: Int, end: Int, isName: Bool) {
        // A name's `count` is its distance from its object's entry (at least 1; 0 for any
        // other string): a remembered member position is checked by it.
        let owner = isName ? UInt32(truncatingIfNeeded: count &- innermost) : 0
        append(Entry(kind: kind, start: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: end &- start), count: owner))
    }

    /// The rest of a string that starts at `start`, from `index` on, where a byte may need a
    /// look; `position` ends after the closing quote.
    @inline(never)
    mutating func string(from start: Int, at index: Int, isName: Bool) throws(JSONSyntaxError) {
        position = index
        var escaped = false
        while true {
            // Plain ASCII is most of any string: passed in one step.
            position = plainRunEnd(from: position)
            guard position < bytes.count else { throw JSONSyntaxError(.unterminatedString, at: start - 1) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                appendString(escaped ? .escapedString : .string, start: start, end: position, isName: isName)
                position &+= 1
                return
            case UInt8(ascii: "\\"):
                escaped = true
                try escape()
            case 0..<0x20:
                throw JSONSyntaxError(.controlCharacterInString, at: position)
            case 0x80...:
                if isName { escaped = true }
                try multiByteScalar()
            default:
                position += 1
            }
        }
    }

    /// The high bit of each of the eight bytes (first byte lowest) that is a quote, a
    /// backslash, a control character or part of a multi-byte sequence. The lowest bit set
    /// marks the first such byte exactly; bits above it may be false alarms, set by a borrow.
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs  // a byte below 0x20
        return (word & highs) | control | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
    }

    /// An escape from its backslash.
    mutating func escape() throws(JSONSyntaxError) {
        let backslash = position
        guard position + 1 < bytes.count else { throw JSONSyntaxError(.unterminatedString, at: backslash) }
        switch bytes[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            position += 2
            let unit = try hexUnit()
            if (0xDC00...0xDFFF).contains(unit) { throw JSONSyntaxError(.loneSurrogate, at: backslash) }
            if (0xD800...0xDBFF).contains(unit) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(.loneSurrogate, at: backslash)
                }
                position += 2
                guard (0xDC00...0xDFFF).contains(try hexUnit()) else { throw JSONSyntaxError(.loneSurrogate, at: backslash) }
            }
        default:
            throw JSONSyntaxError(.invalidEscape, at: backslash)
        }
    }

    /// Four hex digits.
    mutating func hexUnit() throws(JSONSyntaxError) -> UInt16 {
        guard position + 4 <= bytes.count else { throw JSONSyntaxError(.unterminatedString, at: position) }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = JSONTape.hexValue(bytes[position]) else { throw JSONSyntaxError(.invalidEscape, at: position) }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }

    /// A UTF-8 sequence of two to four bytes, checked as Unicode 15 §3.9 table 3-7 says: no
    /// overlong forms, no surrogates, nothing past U+10FFFF.
    mutating func multiByteScalar() throws(JSONSyntaxError) {
        let lead = bytes[position]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw JSONSyntaxError(.invalidUTF8, at: position)
        }
        guard position + length <= bytes.count else { throw JSONSyntaxError(.invalidUTF8, at: position) }
        guard secondRange.contains(bytes[position + 1]) else { throw JSONSyntaxError(.invalidUTF8, at: position) }
        for offset in 2..<length where bytes[position + offset] & 0xC0 != 0x80 {
            throw JSONSyntaxError(.invalidUTF8, at: position)
        }
        position += length
    }
}
