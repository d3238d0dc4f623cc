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
