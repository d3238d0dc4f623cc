/// Turns the bytes of a JSON string with escapes (already checked by ``JSONTape``) into its text.
enum JSONStringUnescaper {
    static func string(from bytes: UnsafeBufferPointer<UInt8>) -> String {
        // Written straight into the string's storage: an escape is never shorter than its text
        // (`\uXXXX` is six bytes for at most three), so the input's length is room enough.
        String(unsafeUninitializedCapacity: bytes.count) { output in
            var written = 0
            var index = bytes.startIndex
            while index < bytes.endIndex {
                // A run without a backslash is copied whole.
                var runEnd = index
                while runEnd < bytes.endIndex, bytes[runEnd] != UInt8(ascii: "\\") { runEnd += 1 }
                if runEnd > index {
                    let run = UnsafeBufferPointer(rebasing: bytes[index..<runEnd])
                    _ = UnsafeMutableBufferPointer(rebasing: output[written..<written + run.count]).initialize(from: run)
                    written += run.count
                    index = runEnd
                    continue
                }
                guard index + 1 < bytes.endIndex else {
                    output[written] = bytes[index]
                    written += 1
                    index += 1
                    continue
                }
                let escaped = bytes[index + 1]
                index += 2
                var byte = escaped  // " \ /
                switch escaped {
                case UInt8(ascii: "b"): byte = 0x08
                case UInt8(ascii: "f"): byte = 0x0C
                case UInt8(ascii: "n"): byte = 0x0A
                case UInt8(ascii: "r"): byte = 0x0D
                case UInt8(ascii: "t"): byte = 0x09
                case UInt8(ascii: "u"):
                    var scalar = UInt32(hexUnit(bytes, at: index))
                    index += 4
                    if (0xD800...0xDBFF).contains(scalar), index + 6 <= bytes.endIndex {
                        let low = UInt32(hexUnit(bytes, at: index + 2))
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                    UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { unit in
                        output[written] = unit
                        written += 1
                    }
                    continue
                default: break
                }
                output[written] = byte
                written += 1
            }
            return written
        }
    }

    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 where index + offset < bytes.endIndex {
            unit = unit << 4 | UInt16(JSONTape.hexValue(bytes[index + offset]) ?? 0)
        }
        return unit
    }
}
