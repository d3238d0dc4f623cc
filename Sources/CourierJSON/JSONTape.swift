/// A JSON text parsed into a flat list of entries, one per value (and one per object member name),
/// in document order: what ``UTF8JSONDecoder`` walks instead of a tree of `Any`.
///
/// The parse is one pass over the bytes with an explicit stack (no recursion, so deep nesting can
/// never overflow the thread's stack). It is strict RFC 8259: no trailing commas, no comments, no
/// leading zeros, no control characters or invalid UTF-8 in strings, no lone surrogates in `\u`
/// escapes, nothing after the top-level value but whitespace. A UTF-8 byte order mark before the
/// text is ignored, as the RFC allows.
///
/// A container's entry records how many entries it holds, so a reader skips a whole value in one
/// step. Strings and numbers are kept as byte ranges and converted only when a value is read.
///
/// The tape keeps a copy of the text, and its entries are written in place as the parser goes (no
/// array to check for uniqueness on each of the thousands of appends, no copy afterwards): both in
/// one allocation of the tape's own, freed with it.
final class JSONTape {
    /// What an entry is.
    enum Kind: UInt8 {
        case object, array
        /// A string without escapes: its bytes are its UTF-8.
        case string
        /// A string with at least one escape; also a member name with any non-ASCII byte, which
        /// is compared as a `String` (canonical equivalence: a precomposed "é" is a decomposed one).
        case escapedString
        /// A number without a fraction or exponent.
        case integer
        /// A number with a fraction or exponent.
        case number
        case `true`, `false`, null
    }

    /// One value, or one member name.
    struct Entry {
        var kind: Kind
        /// A number whose value the parse read (see ``value``): its length in bytes, which
        /// `length` no longer holds. 0 for every other entry.
        var readLength: UInt16 = 0
        /// First byte: after the opening quote for strings, the value's first byte otherwise.
        var start: UInt32
        /// Scalars: bytes (without the quotes). Containers: entries inside, so the next sibling is
        /// at `index + 1 + length`.
        var length: UInt32
        /// Containers: members or elements. Member names: the distance back to their object's
        /// entry (see `TapeDecoder+MemberGuesses`); 0 for other strings.
        var count: UInt32

        /// Where the value's bytes end.
        var end: Int { Int(start) + (readLength != 0 ? Int(readLength) : Int(length)) }

        /// A number read by the parse (`readLength` not 0), in place of `length` and `count`: an
        /// `integer`'s `Int64` or a `number`'s `Double`, as bits.
        var value: UInt64 { UInt64(length) | UInt64(count) << 32 }

        /// A number entry whose value the parse read.
        init(kind: Kind, start: Int, length: Int, value: UInt64) {
            self.kind = kind
            readLength = UInt16(truncatingIfNeeded: length)
            self.start = UInt32(truncatingIfNeeded: start)
            self.length = UInt32(truncatingIfNeeded: value)
            count = UInt32(truncatingIfNeeded: value >> 32)
        }

        /// Any other entry (a number here is read later, from its bytes).
        init(kind: Kind, start: UInt32, length: UInt32, count: UInt32) {
            self.kind = kind
            self.start = start
            self.length = length
            self.count = count
        }
    }

    /// A copy of the JSON text: decoders read member names and scalars from it in place.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The entries; the value is at 0, and one `null` entry past the document stands in for
    /// values that are absent (see ``nullIndex``).
    let entries: UnsafeBufferPointer<Entry>
    /// One allocation for the copy of the text and, unless the parse outgrew them, the entries.
    private let block: UnsafeMutableRawPointer
    /// Whether the entries outgrew the block into an allocation of their own.
    private let entriesAllocated: Bool

    /// An entry that is `null` and belongs to no container.
    var nullIndex: Int { entries.count - 1 }

    /// The deepest nesting of arrays and objects accepted; as Foundation's `JSONSerialization`.
    static let maximumDepth = 512

    /// Copies and parses `text`, or throws a ``JSONSyntaxError`` saying what is wrong and where.
    init(parsing text: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        guard text.count < Int(UInt32.max) else {
            throw JSONSyntaxError(.documentTooLarge, at: 0)
        }
        // About one entry per eight bytes in typical JSON; more when needed.
        let capacity = max(16, text.count / 8)
        let entriesOffset = (text.count + 15) & ~15
        block = .allocate(byteCount: entriesOffset + capacity * MemoryLayout<Entry>.stride, alignment: 16)
        let copy = block.bindMemory(to: UInt8.self, capacity: text.count)
        if let source = text.baseAddress { copy.initialize(from: source, count: text.count) }
        bytes = UnsafeBufferPointer(start: copy, count: text.count)
        var parser = Parser(bytes: bytes, entries: (block + entriesOffset).bindMemory(to: Entry.self, capacity: capacity), capacity: capacity)
        do {
            try parser.parse()
        } catch {
            if parser.entriesAllocated { parser.entries.deallocate() }
            block.deallocate()
            throw error
        }
        parser.append(Entry(kind: .null, start: 0, length: 0, count: 0))
        entries = UnsafeBufferPointer(start: parser.entries, count: parser.count)
        entriesAllocated = parser.entriesAllocated
    }

    deinit {
        if entriesAllocated { entries.deallocate() }
        block.deallocate()
    }

    /// The single-pass parser.
    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// The entries written so far (`count` of them, room for `capacity`), which the tape
        /// takes over; every index used on them comes from the parser itself.
        var entries: UnsafeMutablePointer<Entry>
        var count = 0
        var capacity: Int
        /// Whether ``entries`` moved out of the tape's block into an allocation of their own.
        var entriesAllocated = false
        /// The innermost container still open, or -1. An open container's `length` holds 1 + the
        /// index of the one around it (0 for none) until it closes: a stack without an array.
        var innermost = -1
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeMutablePointer<Entry>, capacity: Int) {
            self.bytes = bytes
            self.entries = entries
            self.capacity = capacity
        }

        @inline(__always)
        mutating func append(_ entry: Entry) {
            if count == capacity { grow() }
            (entries + count).initialize(to: entry)
            count += 1
        }

        /// Twice the room, the entries so far moved there.
        @inline(never)
        private mutating func grow() {
            let larger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: entries, count: count)
            if entriesAllocated { entries.deallocate() }
            entries = larger
            entriesAllocated = true
            capacity *= 2
        }

        mutating func parse() throws(JSONSyntaxError) {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
            skipWhitespace()
            while true {
                // A value is expected at `position`.
                guard position < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
                switch bytes[position] {
                case UInt8(ascii: "{"):
                    try openContainer(.object)
                    if peek() == UInt8(ascii: "}") {
                        position += 1
                        closeContainer()
                    } else {
                        try memberName(afterComma: false)
                        continue
                    }
                case UInt8(ascii: "["):
                    try openContainer(.array)
                    if peek() == UInt8(ascii: "]") {
                        position += 1
                        closeContainer()
                    } else {
                        continue
                    }
                case UInt8(ascii: "\""):
                    try string()
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    try number()
                case UInt8(ascii: "t"):
                    try literal("true", .true)
                case UInt8(ascii: "f"):
                    try literal("false", .false)
                case UInt8(ascii: "n"):
                    try literal("null", .null)
                default:
                    throw JSONSyntaxError(.unexpectedCharacter, at: position)
                }
                // A value ended: close containers, or find where the next value starts.
                if try afterValue() { return }
            }
        }

        /// After a value: `true` when the document is complete; otherwise `position` is where the
        /// next value starts.
        private mutating func afterValue() throws(JSONSyntaxError) -> Bool {
            while true {
                skipWhitespace()
                let container = innermost
                guard container >= 0 else {
                    guard position == bytes.count else { throw JSONSyntaxError(.unexpectedCharacter, at: position) }
                    return true
                }
                guard position < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
                let isObject = entries[container].kind == .object
                switch bytes[position] {
                case UInt8(ascii: ","):
                    position += 1
                    entries[container].count += 1
                    skipWhitespace()
                    if isObject {
                        try memberName(afterComma: true)
                    } else if peek() == UInt8(ascii: "]") {
                        throw JSONSyntaxError(.trailingComma, at: position)
                    }
                    return false
                case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
                    position += 1
                    entries[container].count += 1
                    closeContainer()
                default:
                    throw JSONSyntaxError(isObject ? .expectedCommaOrEndOfObject : .expectedCommaOrEndOfArray, at: position)
                }
            }
        }

        /// A member's name and its colon; `position` is then at the member's value.
        private mutating func memberName(afterComma: Bool) throws(JSONSyntaxError) {
            skipWhitespace()
            guard position < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
            guard bytes[position] == UInt8(ascii: "\"") else {
                let reason: JSONSyntaxError.Reason = afterComma && bytes[position] == UInt8(ascii: "}") ? .trailingComma : .expectedMemberName
                throw JSONSyntaxError(reason, at: position)
            }
            try string(isName: true)
            skipWhitespace()
            guard position < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
            guard bytes[position] == UInt8(ascii: ":") else { throw JSONSyntaxError(.expectedColon, at: position) }
            position += 1
            skipWhitespace()
        }

        @inline(__always)
        private mutating func openContainer(_ kind: Kind) throws(JSONSyntaxError) {
            guard depth < JSONTape.maximumDepth else { throw JSONSyntaxError(.tooDeeplyNested, at: position) }
            depth += 1
            append(Entry(kind: kind, start: UInt32(position), length: UInt32(innermost + 1), count: 0))
            innermost = count - 1
            position += 1
            skipWhitespace()
        }

        private mutating func closeContainer() {
            let container = innermost
            innermost = Int(entries[container].length) - 1
            depth -= 1
            entries[container].length = UInt32(count - container - 1)
        }

        private func peek() -> UInt8? {
            position < bytes.count ? bytes[position] : nil
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            // Most tokens follow each other directly: one comparison in place, as every
            // whitespace byte is at most a space.
            guard position < bytes.count, bytes[position] <= UInt8(ascii: " ") else { return }
            // One space before a token (`"name": value`, `, `) is passed in place too.
            if bytes[position] == UInt8(ascii: " "), position &+ 1 < bytes.count, bytes[position &+ 1] > UInt8(ascii: " ") {
                position &+= 1
                return
            }
            skipWhitespaceRun()
        }

        /// The whitespace from `position` on, which starts with a byte of at most a space.
        @inline(never)
        private mutating func skipWhitespaceRun() {
            var index = position
            let end = bytes.count
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
                case UInt8(ascii: "\n"):
                    index += 1
                    // The indentation after a line break: eight bytes at a time, the first byte
                    // that is not a space found in one step (the bytes read are inside the
                    // buffer, `index + 8 <= end`).
                    if let base = bytes.baseAddress {
                        while index &+ 8 <= end {
                            let others = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) ^ 0x2020_2020_2020_2020
                            guard others == 0 else {
                                index &+= others.trailingZeroBitCount >> 3
                                break
                            }
                            index &+= 8
                        }
                    }
                default:
                    position = index
                    return
                }
            }
            position = index
        }

        private mutating func literal(_ text: StaticString, _ kind: Kind) throws(JSONSyntaxError) {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
            let expected = text.utf8Start
            for offset in 0..<count where bytes[position + offset] != expected[offset] {
                throw JSONSyntaxError(.unexpectedCharacter, at: position + offset)
            }
            append(Entry(kind: kind, start: UInt32(position), length: UInt32(count), count: 0))
            position += count
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, its value read on the way when
        /// the fast paths decide it (up to 18 digits for an integer, 19 significant digits for
        /// any other number; see ``JSONNumberReader/double(mantissa:scale:)``).
        private mutating func number() throws(JSONSyntaxError) {
            // The scan keeps its place in a local (a register), not in `position`.
            let bytes = self.bytes
            let start = position
            var index = position
            var isInteger = true
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let digitsStart = index
            var mantissa: UInt64 = 0
            var digitCount = 0
            guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
            let first = bytes[index]
            if first == UInt8(ascii: "0") {
                index += 1
                digitCount = 1
                if index < bytes.count, Self.isDigit(bytes[index]) { throw JSONSyntaxError(.leadingZero, at: start) }
            } else if Self.isDigit(first) {
                digitCount = Self.readDigits(bytes, from: &index, into: &mantissa)
            } else {
                throw JSONSyntaxError(.invalidNumber, at: index)
            }
            var scale = 0
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                try Self.requireDigit(bytes, at: index)
                let fractionDigits = Self.readDigits(bytes, from: &index, into: &mantissa)
                scale = -fractionDigits
                digitCount += fractionDigits
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                var negativeExponent = false
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    negativeExponent = bytes[index] == UInt8(ascii: "-")
                    index += 1
                }
                try Self.requireDigit(bytes, at: index)
                // Capped far past any `Double`, so that no exponent overflows.
                var exponent = 0
                while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                    exponent = min(exponent &* 10 &+ Int(digit), 100_000)
                    index += 1
                }
                scale += negativeExponent ? -exponent : exponent
            }
            position = index
            let length = index - start
            if length <= Int(UInt16.max) {
                if isInteger {
                    // Up to 18 digits fit an `Int64` whatever they are.
                    if digitCount <= 18 {
                        let value = negative ? 0 &- Int64(mantissa) : Int64(mantissa)
                        append(Entry(kind: .integer, start: start, length: length, value: UInt64(bitPattern: value)))
                        return
                    }
                } else if JSONNumberReader.significantDigits(digitCount, UnsafeBufferPointer(rebasing: bytes[digitsStart..<index])) <= 19,
                    let magnitude = JSONNumberReader.double(mantissa: mantissa, scale: scale)
                {
                    let value = negative ? -magnitude : magnitude
                    append(Entry(kind: .number, start: start, length: length, value: value.bitPattern))
                    return
                }
            }
            append(Entry(kind: isInteger ? .integer : .number, start: UInt32(start), length: UInt32(length), count: 0))
        }

        /// Digits of `bytes` from `index` on (which ends after them), appended to `mantissa`
        /// (wrapping past 19 digits); how many.
        @inline(__always)
        private static func readDigits(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, into mantissa: inout UInt64) -> Int {
            let start = index
            if let base = bytes.baseAddress {
                // Eight bytes at a time where eight are left (so the read stays inside the
                // buffer): the digits among them in one step.
                while index + 8 <= bytes.count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                    let others = JSONNumberReader.nonDigitBytes(word)
                    let digits = others == 0 ? 8 : others.trailingZeroBitCount >> 3
                    if digits > 0 {
                        mantissa = mantissa &* JSONNumberReader.scale(by: digits) &+ JSONNumberReader.digitsValue(word, count: digits)
                        index += digits
                    }
                    if digits < 8 { return index - start }
                }
            }
            while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            return index - start
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            byte &- UInt8(ascii: "0") < 10
        }

        /// The byte at `index` must be a digit.
        @inline(__always)
        private static func requireDigit(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws(JSONSyntaxError) {
            guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
            guard isDigit(bytes[index]) else { throw JSONSyntaxError(.invalidNumber, at: index) }
        }

        /// A string from its opening quote; `position` ends after the closing quote.
        ///
        /// Most strings are plain ASCII to their closing quote: those are read here, in the
        /// caller's loop; a string with an escape, a control character or a multi-byte sequence
        /// goes on in ``string(from:at:isName:)`` from its first such byte.
        @inline(__always)
        private mutating func string(isName: Bool = false) throws(JSONSyntaxError) {
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
        private func plainRunEnd(from start: Int) -> Int {
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
        private mutating func appendString(_ kind: Kind, start: Int, end: Int, isName: Bool) {
            // A name's `count` is its distance from its object's entry (at least 1; 0 for any
            // other string): a remembered member position is checked by it.
            let owner = isName ? UInt32(truncatingIfNeeded: count &- innermost) : 0
            append(Entry(kind: kind, start: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: end &- start), count: owner))
        }

        /// The rest of a string that starts at `start`, from `index` on, where a byte may need a
        /// look; `position` ends after the closing quote.
        @inline(never)
        private mutating func string(from start: Int, at index: Int, isName: Bool) throws(JSONSyntaxError) {
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
        private static func specialBytes(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
            let control = (word &- ones &* 0x20) & ~word & highs  // a byte below 0x20
            return (word & highs) | control | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
        }

        /// An escape from its backslash.
        private mutating func escape() throws(JSONSyntaxError) {
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
        private mutating func hexUnit() throws(JSONSyntaxError) -> UInt16 {
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
        private mutating func multiByteScalar() throws(JSONSyntaxError) {
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

    /// The value of a hex digit.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension JSONTape {
    /// ``init(parsing:)`` for the raw bytes a `Data` or an array lends, with the error as a value
    /// (their `withUnsafeBytes` throws untyped errors).
    static func parse(copying text: UnsafeRawBufferPointer) -> Result<JSONTape, JSONSyntaxError> {
        Result { () throws(JSONSyntaxError) in try JSONTape(parsing: text.bindMemory(to: UInt8.self)) }
    }
}
