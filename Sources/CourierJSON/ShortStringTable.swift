/// Strings of up to 15 bytes read before, by their bytes: the same short value met again (a tag,
/// a language code, a name in every record) is copied, not validated and made again.
///
/// Such a string is stored inline in a `String` value, so the copy costs no allocation and no
/// reference count; making it costs the standard library's UTF-8 check and its construction,
/// a few hundred instructions. A slot is found by hashing the bytes, held as two words with the
/// length, and compared whole: equal words are equal bytes, so a hit is the string itself.
struct ShortStringTable {
    /// Table size; a miss replaces the slot's string.
    private static var slotCount: Int { 128 }
    /// Strings read before the table is made: a small document would not repay it.
    private static var threshold: Int { 32 }

    private struct Slot {
        var low: UInt64
        var high: UInt64
        var string: String
    }

    private var slots: UnsafeMutablePointer<Slot>?
    private var reads = 0

    /// Frees the slots; the table is not used again.
    mutating func deallocate() {
        guard let slots else { return }
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
        self.slots = nil
    }

    /// The string of `count` (at most 15) valid UTF-8 bytes at `start` of `bytes`, made by `make`
    /// when not in the table.
    @inline(__always)
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, count: Int, make: () -> String) -> String {
        guard let slots else {
            reads += 1
            if reads == Self.threshold { allocate() }
            return make()
        }
        guard let base = bytes.baseAddress else { return make() }
        var low: UInt64 = 0
        var high = UInt64(count) << 56
        if start + 16 <= bytes.count {
            // Sixteen bytes read, those past the string masked off.
            let raw = UnsafeRawPointer(base + start)
            let lowBits = min(count, 8) * 8
            let highBits = max(count - 8, 0) * 8
            low = raw.loadUnaligned(as: UInt64.self) & (lowBits == 64 ? ~0 : (1 << lowBits) - 1)
            high |= raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & ((1 << highBits) - 1)
        } else {
            for offset in 0..<count {
                let byte = UInt64(base[start + offset])
                if offset < 8 { low |= byte << (offset * 8) } else { high |= byte << ((offset - 8) * 8) }
            }
        }
        let hash = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        let slot = slots + Int(truncatingIfNeeded: hash >> 57)
        if slot.pointee.low == low && slot.pointee.high == high { return slot.pointee.string }
        let string = make()
        slot.pointee = Slot(low: low, high: high, string: string)
        return string
    }

    private mutating func allocate() {
        let slots = UnsafeMutablePointer<Slot>.allocate(capacity: Self.slotCount)
        // All slots hold the empty string, whose key (length 0, no bytes) is all zeros.
        slots.initialize(repeating: Slot(low: 0, high: 0, string: ""), count: Self.slotCount)
        self.slots = slots
    }
}
