/// Answers about types, each found once per document and remembered: the dynamic casts and
/// generic metadata lookups behind them cost hundreds of instructions, while a document decodes
/// its dozen or so types hundreds of times each.
///
/// The types met are kept in order: the first few found by a scan, which costs less than a table
/// for the one or two types of a small document; past those, through a small open-addressed
/// table of their positions. Past 64 types, an answer is worked out again each time.
struct TypeTable<Answer> {
    /// How many types are found by a scan before the table is made.
    private static var scanned: Int { 4 }
    /// The table's size, twice ``capacity`` so that probes stay short.
    private static var slotCount: Int { 128 }
    /// How many types are remembered.
    private static var capacity: Int { 64 }
    /// The types met and their answers, in the order met.
    private var known: [(identity: ObjectIdentifier, answer: Answer)] = []
    /// Per slot, 1 + the position in ``known`` of the type hashed there, or 0; made when
    /// ``known`` outgrows the scan.
    private var slots: [UInt8] = []

    /// The answer for `type`, from `ask` the first time.
    @inline(__always)
    mutating func answer(for type: Any.Type, _ ask: () -> Answer) -> Answer {
        let identity = ObjectIdentifier(type)
        guard known.count >= Self.scanned else {
            for entry in known where entry.identity == identity { return entry.answer }
            let answer = ask()
            known.append((identity, answer))
            if known.count == Self.scanned {
                slots = Array(repeating: 0, count: Self.slotCount)
                for position in known.indices { slots[freeSlot(for: known[position].identity)] = UInt8(position + 1) }
            }
            return answer
        }
        let slot = freeSlot(for: identity)
        if slots[slot] != 0 { return known[Int(slots[slot]) - 1].answer }
        let answer = ask()
        if known.count < Self.capacity {
            known.append((identity, answer))
            slots[slot] = UInt8(known.count)
        }
        return answer
    }

    /// The slot holding `identity`, or the empty slot where it belongs.
    private func freeSlot(for identity: ObjectIdentifier) -> Int {
        // Metadata addresses are at least 8-aligned: the bits above those pick the first slot.
        let bits = UInt(bitPattern: identity)
        var slot = Int(truncatingIfNeeded: (bits >> 3) ^ (bits >> 10)) & (Self.slotCount - 1)
        // At most `capacity` of the slots are taken, so an empty one ends every probe.
        while slots[slot] != 0, known[Int(slots[slot]) - 1].identity != identity {
            slot = (slot + 1) & (Self.slotCount - 1)
        }
        return slot
    }
}
