/// Where a key type's members were found in the last object it read, checked first next time.
///
/// Synthesized `init(from:)` asks its keys in declaration order, and objects of one type tend to
/// share a layout even when it is not that order (`.sortedKeys` output): the n-th key a key type
/// asks is looked for first where its n-th key was found last time, as a distance from the object's
/// entry. The guess is checked as exactly as a scan checks: the entry there must be a member name
/// of this very object (its `count` holds its distance back to its object) and match the key, and
/// when it is not the first member, the object must have no repeated name, or a namesake before it
/// would be the one `JSONDecoder` reads (settled once per object). Anything else falls back to the
/// scan.
///
/// A key of one, two, four or eight plain bytes (a synthesized `CodingKeys` case, an integer key) is also
/// remembered by those bytes, with the name it was found under: when the same key asks again, the
/// name at the guessed place is compared with that name, and the key is not asked for its string.
extension TapeDecoder {
    /// Guesses remembered per key type: enough for the keys of a large model.
    static var guessesPerKeyType: Int { 64 }
    /// Key types given guesses; past them, containers look up by scanning only.
    static var guessedKeyTypes: Int { 64 }

    /// Points the guesses at `keys`' slots for the object at `object`, whose container was just
    /// made. The first key type met guesses from its second object on, with no table and no
    /// allocation before then: a document of one record pays nothing for guesses it cannot use.
    @inline(__always)
    func startGuessing(_ keys: any CodingKey.Type, object: Int) {
        let identity = ObjectIdentifier(keys)
        let block: Int
        if identity == firstGuessedKeys {
            block = 0
        } else if firstGuessedKeys == nil {
            firstGuessedKeys = identity
            guessObject = -1
            return
        } else {
            block = guessBlocks.answer(for: keys) { newGuessBlock() }
        }
        guard block >= 0 else {
            guessObject = -1
            return
        }
        if guessCapacity <= block &* Self.guessesPerKeyType { growGuesses(to: block &+ 1) }
        guessObject = object
        guessNext = block &* Self.guessesPerKeyType
        guessEnd = guessNext &+ Self.guessesPerKeyType
    }

    /// The slots of a key type met for the first time (after the first one); -1 past the limit.
    private func newGuessBlock() -> Int {
        guard guessBlockCount < Self.guessedKeyTypes else { return -1 }
        guessBlockCount += 1
        return guessBlockCount
    }

    /// Room for at least `blocks` key types' guesses, the new slots 0 (no guess).
    @inline(never)
    private func growGuesses(to blocks: Int) {
        // Room for four key types at first (most documents), doubled as more are met.
        let capacity = max(blocks * Self.guessesPerKeyType, guessCapacity * 2, 4 * Self.guessesPerKeyType)
        let larger = UnsafeMutablePointer<MemberGuess>.allocate(capacity: capacity)
        larger.initialize(repeating: MemberGuess(), count: capacity)
        if let guesses {
            larger.update(from: guesses, count: guessCapacity)
            guesses.deallocate()
        }
        guesses = larger
        guessCapacity = capacity
    }

    /// The value index of the member for the key whose bits are `key`, when this lookup's guess
    /// remembers that very key and the name it was found under is at the guessed place again (its
    /// bytes compared, as exactly as a scan compares); `nil` otherwise, with nothing changed, for
    /// ``valueIndex(ofMember:in:key:)``.
    @inline(__always)
    func rememberedValueIndex(forKey key: UInt64, in object: Int) -> Int? {
        guard guessObject == object, guessNext < guessEnd, let guesses else { return nil }
        let guess = guesses[guessNext]
        // A remembered name is a member of an earlier object: never the tape's first entry.
        guard guess.name != 0, guess.key == key else { return nil }
        let offset = Int(guess.offset)
        guard offset <= Int(entries[object].length) else { return nil }
        let position = object &+ offset
        let entry = entries[position]
        let named = entries[Int(guess.name)]
        guard Int(entry.count) == offset, entry.kind == .string, entry.length == named.length,
            Self.bytesEqual(bytes, at: Int(entry.start), at: Int(named.start), count: Int(entry.length)),
            offset == 1 || !mayRepeatNames(object)
        else { return nil }
        guessNext &+= 1
        return found(position, in: object)
    }

    /// The value index of member `wanted` of the object at `object`: first where the guess for this
    /// lookup points, then by ``scanForMember(_:in:)``, whose answer becomes the next guess,
    /// remembered with `key` (the key's bits, see ``rememberedValueIndex(forKey:in:)``) when given.
    func valueIndex(ofMember wanted: UnsafeBufferPointer<UInt8>, in object: Int, key: UInt64? = nil) -> Int? {
        guard guessObject == object, guessNext < guessEnd, let guesses else {
            return scanForMember(wanted, in: object)
        }
        let slot = guessNext
        guessNext = slot &+ 1
        let offset = Int(guesses[slot].offset)
        // Inside the object, and a name whose object is this one: a name of an object nested in a
        // member's value is nearer its own object, and other strings hold 0.
        if offset != 0, offset <= Int(entries[object].length) {
            let position = object &+ offset
            let entry = entries[position]
            if Int(entry.count) == offset, entry.kind == .string || entry.kind == .escapedString,
                isMember(entry, named: wanted), offset == 1 || !mayRepeatNames(object)
            {
                remember(key, named: position, in: slot)
                return found(position, in: object)
            }
        }
        let found = scanForMember(wanted, in: object)
        // The name's distance from the object (0: absent, no guess).
        guesses[slot].offset = found.map { UInt32(truncatingIfNeeded: $0 &- 1 &- object) } ?? 0
        remember(key, named: found.map { $0 &- 1 } ?? 0, in: slot)
        return found
    }

    /// The value index of the member whose name is at `position` of `object`, found where a guess
    /// said: a scan after a missed guess starts after this member (the document's order).
    @inline(__always)
    private func found(_ position: Int, in object: Int) -> Int {
        hintObject = object
        hintPosition = next(after: position &+ 1)
        return position &+ 1
    }

    /// Notes in `slot` that `key` names the member whose name is at `name` (0: none, or a name
    /// compared as a `String`, which equal bytes do not settle).
    @inline(__always)
    private func remember(_ key: UInt64?, named name: Int, in slot: Int) {
        guard let guesses else { return }
        if let key, name != 0, entries[name].kind == .string {
            guesses[slot].key = key
            guesses[slot].name = UInt32(truncatingIfNeeded: name)
        } else {
            guesses[slot].name = 0
        }
    }

    /// Whether the member name `entry` is `wanted` under the key strategy.
    @inline(__always)
    private func isMember(_ entry: JSONTape.Entry, named wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        // A plain name's bytes are ASCII (the parse marks any other as escaped), so equal bytes
        // need no look at `wanted` first.
        if entry.kind == .string && keyMode == .plain {
            return Int(entry.length) == wanted.count && Self.bytesEqual(bytes, at: Int(entry.start), wanted)
        }
        return Self.matches(entry, wanted, in: bytes, snakeCase: keyMode == .snakeCase, wantedIsASCII: Self.isASCII(wanted))
    }

    /// Whether the object may repeat a name: past its first member, a namesake before a guessed
    /// member would be the one to read. Settled once per object, and read here without a call.
    @inline(__always)
    private func mayRepeatNames(_ object: Int) -> Bool {
        if let states = nameStates, states[object] == Self.distinctNames { return false }
        return mayRepeatNames(object, snakeCase: keyMode == .snakeCase)
    }
}

/// One lookup remembered for a key type: where the member was, and for a key of one, two, four or
/// eight plain bytes, which key it was and the name it was found under.
struct MemberGuess {
    /// The member name's distance from its object's entry; 0: absent, no guess.
    var offset: UInt32 = 0
    /// The entry of the name last found for ``key``; 0: none remembered.
    var name: UInt32 = 0
    /// The key's bits.
    var key: UInt64 = 0
}
