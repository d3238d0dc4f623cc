/// Turns the bytes of a JSON string with escapes (already checked by ``JSONTape``) into its text.
enum JSONStringUnescaper {
    static func string(from bytes: UnsafeBufferPointer<UInt8>) -> String {
        // An escape is never shorter than its text (`\uXXXX` is six bytes for at most three), so
        // the input's length is room enough. The text is valid UTF-8 (the parse checked the bytes
        // and the escapes), so the string takes it without a second check where it can.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { output in
            let written = unescape(bytes, into: output)
            return String(validatedUTF8: UnsafeBufferPointer(rebasing: output[..<written]))
        }
    }

    /// The text of `bytes` written to `output` (at least as long); how many bytes it is.
    private static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var written = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            // Eight bytes at a time are copied as one word while eight are left (the output is as
            // long as the input and never ahead of it: eight fit there too), up to a backslash:
            // the bytes written past it are written over next.
            if let source = bytes.baseAddress, let target = output.baseAddress {
                let ones: UInt64 = 0x0101_0101_0101_0101
                while index &+ 8 <= bytes.count {
                    let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(target + written).storeBytes(of: word, as: UInt64.self)
                    let others = UInt64(littleEndian: word) ^ (ones &* UInt64(UInt8(ascii: "\\")))
                    // The high bit of each backslash; the lowest one set marks the first exactly.
                    let backslashes = (others &- ones) & ~others & (ones &* 0x80)
                    let plain = backslashes == 0 ? 8 : backslashes.trailingZeroBitCount >> 3
                    index &+= plain
                    written &+= plain
                    if plain < 8 { break }
                }
            }
            guard index < bytes.endIndex else { break }
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.endIndex else {
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

    private static func hexUnit(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16 {
        var unit: UInt16 = 0
        for offset in 0..<4 where index + offset < bytes.endIndex {
            unit = unit << 4 | UInt16(JSONTape.hexValue(bytes[index + offset]) ?? 0)
        }
        return unit
    }
}
