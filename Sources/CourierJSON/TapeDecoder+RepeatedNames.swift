/// Whether an object may name a member twice, asked once per object and remembered.
///
/// JSONDecoder reads the first of two members with the same name. The member lookup starts where
/// the last one ended, so it would find a later namesake first: for objects that may repeat a
/// name it starts from the top instead. Most objects repeat none, and keep the faster lookup.
extension TapeDecoder {
    private enum NameState: UInt8 {
        case unknown = 0
        case distinct, mayRepeat
    }

    /// Whether the object at `object` may have two members of the same name (after the
    /// snake-case conversion when `snakeCase`); `false` only when it certainly has not.
    func mayRepeatNames(_ object: Int, snakeCase: Bool) -> Bool {
        let states: UnsafeMutablePointer<UInt8>
        if let existing = nameStates {
            states = existing
        } else {
            states = .allocate(capacity: entries.count)
            states.initialize(repeating: NameState.unknown.rawValue, count: entries.count)
            nameStates = states
        }
        switch NameState(rawValue: states[object]) {
        case .distinct: return false
        case .mayRepeat: return true
        default:
            let repeats = findsRepeatedName(object, snakeCase: snakeCase)
            states[object] = (repeats ? NameState.mayRepeat : .distinct).rawValue
            return repeats
        }
    }

    /// Whether two names of the object hash the same: then they may be equal (rarely they are
    /// not, which costs only speed). Each name is hashed once, on the stack for small objects.
    private func findsRepeatedName(_ object: Int, snakeCase: Bool) -> Bool {
        let count = Int(entries[object].count)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { hashes in
            var position = object + 1
            for member in 0..<count {
                // Escapes and non-ASCII names compare as `String`s: equal names may differ in bytes.
                guard entries[position].kind == .string else { return true }
                hashes[member] = nameHash(position, folded: snakeCase)
                position = next(after: position + 1)
            }
            if count <= 8 {
                for later in 0..<count {
                    for earlier in 0..<later where hashes[earlier] == hashes[later] { return true }
                }
                return false
            }
            // Ten bits of each hash in a 1,024-bit set: no two alike (most objects) settles it.
            var bits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let distinctBits = withUnsafeMutableBytes(of: &bits) { raw in
                let words = raw.bindMemory(to: UInt64.self)
                for hash in hashes {
                    let bit = Int(truncatingIfNeeded: (UInt(bitPattern: hash) &* 0x9E37_79B9_7F4A_7C15) >> 54)
                    let mask: UInt64 = 1 << (bit & 63)
                    if words[bit >> 6] & mask != 0 { return false }
                    words[bit >> 6] |= mask
                }
                return true
            }
            if distinctBits { return false }
            // Two alike: compare the whole hashes, in order.
            var sorted = hashes
            sorted.sort()
            for later in sorted.indices.dropFirst() where sorted[later - 1] == sorted[later] { return true }
            return false
        }
    }

    /// A hash of the name that equal names share. Plain: its length and its first and last eight
    /// bytes (a few loads, whatever its length). Folded for snake case: the count, sum and
    /// exclusive-or of its bytes in lower case without underscores, eight bytes at a time, so that
    /// names converting to the same key hash the same (so do anagrams, which costs only speed).
    private func nameHash(_ index: Int, folded: Bool) -> Int {
        let entry = entries[index]
        let count = Int(entry.length)
        guard let base = bytes.baseAddress else { return 0 }
        let start = UnsafeRawPointer(base + Int(entry.start))
        if !folded {
            var hash = UInt64(count) &* 0x9E37_79B9_7F4A_7C15
            if count >= 8 {
                hash ^= start.loadUnaligned(as: UInt64.self)
                hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
                hash ^= start.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                for offset in 0..<count { hash = (hash ^ UInt64(start.load(fromByteOffset: offset, as: UInt8.self))) &* 0x100_0000_01B3 }
            }
            return Int(truncatingIfNeeded: (hash ^ (hash >> 31)) &* 0x94D0_49BB_1331_11EB)
        }
        let ones: UInt64 = 0x0101_0101_0101_0101
        var length = 0
        var sum: UInt64 = 0
        var mixed: UInt64 = 0
        var offset = 0
        while offset + 8 <= count {
            let word = start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // The high bit of each byte that is an underscore, exactly (no borrow between bytes).
            let difference = word ^ (ones &* 0x5F)
            let underscores = ~(((difference & (ones &* 0x7F)) &+ (ones &* 0x7F)) | difference | (ones &* 0x7F))
            let kept = (word | (ones &* 0x20)) & ~((underscores >> 7) &* 0xFF)
            // The underscores counted by one multiplication (no population-count instruction on
            // the baseline x86-64).
            length += 8 - Int(((underscores >> 7) &* ones) >> 56)
            let pairs = (kept & 0x00FF_00FF_00FF_00FF) &+ ((kept >> 8) & 0x00FF_00FF_00FF_00FF)
            sum &+= (pairs &* 0x0001_0001_0001_0001) >> 48
            mixed ^= kept
            offset += 8
        }
        while offset < count {
            let byte = start.load(fromByteOffset: offset, as: UInt8.self)
            if byte != UInt8(ascii: "_") {
                let lowered = UInt64(byte | 0x20)
                length += 1
                sum &+= lowered
                mixed ^= lowered
            }
            offset += 1
        }
        // The exclusive-or of all kept bytes, whichever lane they were in.
        mixed ^= mixed >> 32
        mixed ^= mixed >> 16
        mixed ^= mixed >> 8
        return length | Int(sum) << 16 | Int(mixed & 0xFF) << 48
    }
}
