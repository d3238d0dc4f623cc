/// How ``TapeDecoder`` reads the types that are not leaves, found by a dynamic cast once per type
/// and document: a cast costs hundreds of instructions, while a document decodes its dozen or so
/// types hundreds of times each.
///
/// The types met are kept in order: the first few found by a scan, which costs less than a table
/// for the one or two types of a small document; past those, through a small open-addressed
/// table of their positions. Past 64 types, a type is asked of the runtime each time.
struct TypeShapes {
    /// What a type is, as far as ``TapeDecoder/unwrap(_:at:)`` cares.
    enum Shape {
        case array(any DecodableArray.Type)
        case dictionary(any StringKeyedDictionary.Type)
        case other
    }

    private static let scanned = 4
    private static let slotCount = 128
    private static let capacity = 64
    /// Whether to ask if a type is a `[String: Value]` (only key strategies read those apart).
    private let asksDictionaries: Bool
    private var known: [(identity: ObjectIdentifier, shape: Shape)] = []
    /// Per slot, 1 + the position in ``known`` of the type hashed there, or 0; made when
    /// ``known`` outgrows the scan.
    private var slots: [UInt8] = []

    init(asksDictionaries: Bool) {
        self.asksDictionaries = asksDictionaries
    }

    /// The shape of `type`.
    mutating func shape(of type: Any.Type) -> Shape {
        let identity = ObjectIdentifier(type)
        guard known.count >= Self.scanned else {
            for entry in known where entry.identity == identity { return entry.shape }
            let shape = ask(type)
            known.append((identity, shape))
            if known.count == Self.scanned {
                slots = Array(repeating: 0, count: Self.slotCount)
                for position in known.indices { slots[freeSlot(for: known[position].identity)] = UInt8(position + 1) }
            }
            return shape
        }
        let slot = freeSlot(for: identity)
        if slots[slot] != 0 { return known[Int(slots[slot]) - 1].shape }
        let shape = ask(type)
        if known.count < Self.capacity {
            known.append((identity, shape))
            slots[slot] = UInt8(known.count)
        }
        return shape
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

    /// The shape of `type`, from the runtime.
    private func ask(_ type: Any.Type) -> Shape {
        if let array = type as? any DecodableArray.Type { return .array(array) }
        if asksDictionaries, let dictionary = type as? any StringKeyedDictionary.Type { return .dictionary(dictionary) }
        return .other
    }
}
