/// Finding an object's member by name: what every keyed read starts with.
///
/// The lookup starts where the last one in the same object ended, so members read in document
/// order are found at the first comparison; a plain name is compared with the bytes in place,
/// its length first.
extension TapeDecoder {
    /// The value index of the first member of the object at `object` whose name is `wanted`
    /// (UTF-8, after the key strategy), or `nil`, found by comparing names.
    func scanForMember(_ wanted: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
        let snakeCase = keyMode == .snakeCase
        // A key with a byte past ASCII is compared as a `String` with every name.
        let wantedIsASCII = Self.isASCII(wanted)
        let count = Int(entries[object].count)
        let inPlace = !snakeCase && wantedIsASCII
        let top = object &+ 1
        let objectEnd = top &+ Int(entries[object].length)
        var start = top
        // A match before the wrap from a hint further on may have an earlier namesake, and
        // JSONDecoder reads the first: objects that may repeat a name are searched from the top.
        // Objects of up to eight plain names are searched from the top without asking: a few
        // length comparisons cost less than hashing their names.
        if hintObject == object, hintPosition > top, hintPosition < objectEnd, count > 8 || snakeCase, !mayRepeatNames(object, snakeCase: snakeCase) {
            start = hintPosition
        }
        let wantedLength = UInt32(truncatingIfNeeded: wanted.count)
        var position = start
        var end = objectEnd
        while true {
            // Indices stay within the tape: `&+` spares the overflow checks in the hottest loop.
            while position < end {
                let entry = entries[position]
                let valueIndex = position &+ 1
                let value = entries[valueIndex]
                position = value.kind.rawValue <= JSONTape.Kind.array.rawValue ? valueIndex &+ 1 &+ Int(value.length) : valueIndex &+ 1
                // A plain name of another length is passed over at once (the usual case).
                let found: Bool
                if entry.kind == .string && inPlace {
                    found = entry.length == wantedLength && Self.bytesEqual(bytes, at: Int(entry.start), wanted)
                } else {
                    found = Self.matches(entry, wanted, in: bytes, snakeCase: snakeCase, wantedIsASCII: wantedIsASCII)
                }
                if found {
                    hintObject = object
                    hintPosition = position
                    return valueIndex
                }
            }
            // From the top to where the search started.
            guard start > top else { return nil }
            end = start
            start = top
            position = top
        }
    }

    /// Whether every byte of `bytes` is ASCII: a word or two at a time for the short runs keys
    /// are (overlapping words, all inside the run).
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let start = UnsafeRawPointer(base)
        let count = bytes.count
        if count >= 8 {
            var any: UInt64 = 0
            var offset = 0
            while offset + 8 <= count {
                any |= start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            any |= start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return any & 0x8080_8080_8080_8080 == 0
        }
        if count >= 4 {
            let any = start.loadUnaligned(as: UInt32.self) | start.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return any & 0x8080_8080 == 0
        }
        var any: UInt8 = 0
        for offset in 0..<count { any |= start.load(fromByteOffset: offset, as: UInt8.self) }
        return any < 0x80
    }

    static func matches(
        _ entry: JSONTape.Entry,
        _ wanted: UnsafeBufferPointer<UInt8>,
        in bytes: UnsafeBufferPointer<UInt8>,
        snakeCase: Bool,
        wantedIsASCII: Bool
    ) -> Bool {
        let name = UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<entry.end])
        if entry.kind == .string, wantedIsASCII {
            if !snakeCase { return name.count == wanted.count && bytesEqual(bytes, at: Int(entry.start), wanted) }
            if let matches = SnakeCaseName.matches(name, converted: wanted) { return matches }
        }
        // Compared as `String`s, as JSONDecoder compares: canonically equivalent names are equal.
        let written = entry.kind == .escapedString ? JSONStringUnescaper.string(from: name) : String(decoding: name, as: UTF8.self)
        return (snakeCase ? SnakeCaseName.converted(written) : written) == String(decoding: wanted, as: UTF8.self)
    }

    /// `memcmp(…) == 0` for the short runs member names are, without the call into the C
    /// library: eight bytes at a time, and the last (or only) few bytes as one overlapping word.
    /// `bytes` from `start` against all of `wanted` (the caller has checked there are as many).
    @inline(__always)
    static func bytesEqual(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, let rhs = wanted.baseAddress else { return wanted.isEmpty }
        return bytesEqual(UnsafeRawPointer(base + start), UnsafeRawPointer(rhs), count: wanted.count)
    }

    /// Two runs of `count` bytes of `bytes`, from `start` and from `other`.
    @inline(__always)
    static func bytesEqual(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, at other: Int, count: Int) -> Bool {
        guard let base = bytes.baseAddress else { return count == 0 }
        return bytesEqual(UnsafeRawPointer(base + start), UnsafeRawPointer(base + other), count: count)
    }

    @inline(__always)
    private static func bytesEqual(_ lhs: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
        switch count {
        case 0:
            return true
        case 1...3:
            for offset in 0..<count where lhs.load(fromByteOffset: offset, as: UInt8.self) != right.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            return true
        case 4...8:
            // The first four bytes and the last four, overlapping when fewer than eight.
            let tail = count - 4
            return lhs.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
                && lhs.loadUnaligned(fromByteOffset: tail, as: UInt32.self) == right.loadUnaligned(fromByteOffset: tail, as: UInt32.self)
        default:
            var offset = 0
            while offset + 8 < count {
                guard lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
            let tail = count - 8
            return lhs.loadUnaligned(fromByteOffset: tail, as: UInt64.self) == right.loadUnaligned(fromByteOffset: tail, as: UInt64.self)
        }
    }
}
