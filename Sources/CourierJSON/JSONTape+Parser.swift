extension JSONTape {
    /// The single-pass parser.
    struct Parser {
        // The tape's own types, by their short names in the parser's extensions too.
        typealias Entry = JSONTape.Entry
        typealias Kind = JSONTape.Kind

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
        mutating func grow() {
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
        mutating func afterValue() throws(JSONSyntaxError) -> Bool {
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
        mutating func memberName(afterComma: Bool) throws(JSONSyntaxError) {
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
        mutating func openContainer(_ kind: Kind) throws(JSONSyntaxError) {
            guard depth < JSONTape.maximumDepth else { throw JSONSyntaxError(.tooDeeplyNested, at: position) }
            depth += 1
            append(Entry(kind: kind, start: UInt32(position), length: UInt32(innermost + 1), count: 0))
            innermost = count - 1
            position += 1
            skipWhitespace()
        }

        mutating func closeContainer() {
            let container = innermost
            innermost = Int(entries[container].length) - 1
            depth -= 1
            entries[container].length = UInt32(count - container - 1)
        }

        func peek() -> UInt8? {
            position < bytes.count ? bytes[position] : nil
        }

        @inline(__always)
        mutating func skipWhitespace() {
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
        mutating func skipWhitespaceRun() {
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

        mutating func literal(_ text: StaticString, _ kind: Kind) throws(JSONSyntaxError) {
            let count = text.utf8CodeUnitCount
            guard position + count <= bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: position) }
            let expected = text.utf8Start
            for offset in 0..<count where bytes[position + offset] != expected[offset] {
                throw JSONSyntaxError(.unexpectedCharacter, at: position + offset)
            }
            append(Entry(kind: kind, start: UInt32(position), length: UInt32(count), count: 0))
            position += count
        }
    }
}
