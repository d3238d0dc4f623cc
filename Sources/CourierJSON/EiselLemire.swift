/// The Eisel–Lemire algorithm: a decimal `w × 10^q` (`w` up to 19 digits) as the nearest `Double`,
/// from one or two 64 × 64-bit multiplications by a 128-bit approximation of 5^q.
///
/// It answers only when the truncated product decides the rounding, and the result is a normal,
/// finite `Double`; otherwise (a product too close to a halfway point, a subnormal or an infinite
/// result) it returns `nil` and the caller converts exactly by other means. Lemire, "Number Parsing
/// at a Gigabyte per Second" (2021); Mushtak and Lemire, "Fast Number Parsing Without Fallback"
/// (2023), which shows the second multiplication always suffices.
enum EiselLemire {
    /// `mantissa × 10^power` correctly rounded, or `nil` when this algorithm does not decide it.
    static func double(mantissa: UInt64, power: Int) -> Double? {
        guard mantissa != 0, power >= -342, power <= 308 else { return nil }
        let leadingZeros = mantissa.leadingZeroBitCount
        let normalized = mantissa << leadingZeros
        let index = 2 * (power + 342)
        // The table holds one entry per power: `index` and `index + 1` are always in range.
        var (high, low) = powersOfFive.withUnsafeBufferPointer { table in
            normalized.multipliedFullWidth(by: table[index])
        }
        // The 9 bits below the 55 kept are all ones: a carry from the lower half could change them.
        if high & 0x1FF == 0x1FF {
            let lowerHalf = powersOfFive.withUnsafeBufferPointer { table in
                normalized.multipliedFullWidth(by: table[index + 1]).high
            }
            let (sum, carry) = low.addingReportingOverflow(lowerHalf)
            low = sum
            if carry { high &+= 1 }
        }
        // Still ambiguous past the exponents where 5^q is exact in 128 bits: decide it exactly.
        if low == .max, power < -27 || power > 55 { return nil }
        let upperBit = Int(high >> 63)
        let shift = upperBit + 9
        var significand = high >> shift
        // ⌊log2(10^power)⌋ + 63, as Lemire writes it, plus the exponent bias.
        var biasedExponent = ((217_706 &* power) >> 16) + 63 + upperBit - leadingZeros + 1023
        guard biasedExponent > 0 else { return nil }
        // Exactly halfway between two doubles (only possible for small powers): round to even.
        if low <= 1, power >= -4, power <= 23, significand & 3 == 1, significand << shift == high {
            significand &= ~1
        }
        significand += significand & 1
        significand >>= 1
        if significand >= 2 << 52 {
            significand = 1 << 52
            biasedExponent += 1
        }
        guard biasedExponent < 0x7FF else { return nil }
        return Double(bitPattern: UInt64(biasedExponent) << 52 | (significand & ~(1 << 52)))
    }
}
