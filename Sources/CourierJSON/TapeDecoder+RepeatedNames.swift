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

    /// The state of an object known to repeat no name, for a check without a call.
    static var distinctNames: UInt8 { NameState.distinct.rawValue }

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
        if !snakeCase, count <= 12, hasDistinctShortForms(object, count: count) { return false }
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
            // Two alike (about half the objects of 40 names): the whole hashes in an open-addressed
            // table at least twice their number, 0 marking an empty slot (a hash of 0 is taken as 1).
            var slotCount = 16
            while slotCount < 2 * count { slotCount *= 2 }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: slotCount) { table in
                table.initialize(repeating: 0)
                for hash in hashes {
                    let key = hash == 0 ? 1 : hash
                    var slot = Int(truncatingIfNeeded: (UInt(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & (slotCount - 1)
                    while table[slot] != 0 {
                        if table[slot] == key { return true }
                        slot = (slot + 1) & (slotCount - 1)
                    }
                    table[slot] = key
                }
                return false
            }
        }
    }

    /// Whether the object's plain names have distinct lengths, first and last bytes: then no two
    /// are equal. One pass with a 128-bit set, no hashing: what settles most small objects.
    private func hasDistinctShortForms(_ object: Int, count: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        var low: UInt64 = 0
        var high: UInt64 = 0
        var position = object &+ 1
        for _ in 0..<count {
            let name = entries[position]
            // Escapes and non-ASCII names compare as `String`s: equal names may differ in bytes.
            guard name.kind == .string else { return false }
            let start = Int(name.start)
            let length = Int(name.length)
            let last = length == 0 ? 0 : UInt64(base[start &+ length &- 1])
            let first = length == 0 ? 0 : UInt64(base[start])
            let form = (UInt64(length) | first << 16 | last << 32) &* 0x9E37_79B9_7F4A_7C15
            let bit: UInt64 = 1 << (form >> 57 & 63)
            if form >> 63 == 0 {
                guard low & bit == 0 else { return false }
                low |= bit
            } else {
                guard high & bit == 0 else { return false }
                high |= bit
            }
            let value = entries[position &+ 1]
            position = value.kind.rawValue <= JSONTape.Kind.array.rawValue ? position &+ 2 &+ Int(value.length) : position &+ 2
        }
        return true
    }

    /// A hash of the name that equal names share. Plain: its length and its first and last eight
    /// bytes (a few loads, whatever its length; all of a name shorter than eight). Folded for snake case: the count, sum and
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
            } else if count >= 4 {
                // The first four bytes and the last four, overlapping: all of a short name.
                let first = UInt64(start.loadUnaligned(as: UInt32.self))
                hash ^= first | UInt64(start.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32
            } else if count > 0 {
                let first = UInt64(start.load(as: UInt8.self))
                let middle = UInt64(start.load(fromByteOffset: count >> 1, as: UInt8.self))
                hash ^= first | middle << 8 | UInt64(start.load(fromByteOffset: count - 1, as: UInt8.self)) << 16
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
