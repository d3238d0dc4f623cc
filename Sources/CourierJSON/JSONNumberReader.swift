/// Reads the numbers of a ``JSONTape`` from their bytes, which the parse has already checked
/// against RFC 8259's grammar.
enum JSONNumberReader {
    /// An integer written without fraction or exponent, or `nil` when it does not fit `T`.
    static func integer<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        var index = bytes.startIndex
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative {
            guard T.isSigned else { return bytes.count == 2 && bytes[1] == UInt8(ascii: "0") ? 0 : nil }
            index += 1
        }
        // Up to 18 digits cannot overflow 64 bits; count them against the type's own width.
        if bytes.count - index <= 18, T.bitWidth >= 64 {
            var value: Int64 = 0
            while index < bytes.endIndex {
                value = value &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return T(exactly: negative ? -value : value)
        }
        var value: T = 0
        while index < bytes.endIndex {
            let digit = T(bytes[index] &- UInt8(ascii: "0"))
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// A number written with a fraction or exponent, read as JSONDecoder reads one from 2^53 up
    /// (through `Decimal`): its significant digits must fit a `UInt64`; then it is shifted by
    /// its exponent, a fraction cut off (`12345234561234567.8` is 12345234561234567), and must
    /// fit `T`.
    static func decimalInteger<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        var index = bytes.startIndex
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: "e"), bytes[index] != UInt8(ascii: "E") {
            if bytes[index] == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                if !(digits.isEmpty && bytes[index] == UInt8(ascii: "0")) { digits.append(bytes[index] - UInt8(ascii: "0")) }
                if seenPoint { fractionDigits += 1 }
            }
            index += 1
        }
        let exponent = Self.exponent(bytes, from: index)
        var scale = exponent - fractionDigits
        while digits.last == 0 {
            digits.removeLast()
            scale += 1
        }
        var mantissa: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            mantissa = next
        }
        if scale < 0 {
            mantissa = -scale > 19 ? 0 : mantissa / pow10(-scale)
        } else if scale > 0 {
            guard scale <= 19 else { return mantissa == 0 ? 0 : nil }
            let (scaled, overflow) = mantissa.multipliedReportingOverflow(by: pow10(scale))
            guard !overflow else { return nil }
            mantissa = scaled
        }
        if negative {
            // JSONDecoder negates a magnitude that fits `T`: `-9223372036854775808.0` is not Int64.min.
            guard T.isSigned else { return mantissa == 0 ? 0 : nil }
            guard mantissa <= UInt64(T.max) else { return nil }
            return 0 - T(mantissa)
        }
        return T(exactly: mantissa)
    }

    private static func pow10(_ exponent: Int) -> UInt64 {
        var value: UInt64 = 1
        for _ in 0..<exponent { value &*= 10 }
        return value
    }

    /// The exponent of a number whose `e`/`E` is at `index` (0 when `index` is the end), capped at
    /// ±100,000 (far past any `Double`).
    private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        guard index < bytes.endIndex else { return 0 }
        var index = index + 1
        var negative = false
        if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var exponent = 0
        while index < bytes.endIndex {
            exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 100_000)
            index += 1
        }
        return negative ? -exponent : exponent
    }

    /// Whether every digit of the number's significand is 0 (`0`, `-0.0`, `0e-400`): a number
    /// that reads as zero without being written as zero is below the type's range.
    static func isZero(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { return true }
            if byte &- UInt8(ascii: "1") < 9 { return false }
        }
        return true
    }

    /// Powers of ten that a `Double` holds exactly.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Any number as the nearest `Double` (correctly rounded; infinite when out of range).
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        if let fast = fastDouble(bytes) { return fast }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// Up to 19 significant digits (a `UInt64`) scaled by a modest power of ten, correctly
    /// rounded without the text conversion; anything else returns `nil` for the full conversion.
    ///
    /// Clinger's fast path first: at most 15 digits (an exact `Double`) and a power of ten up to
    /// 22 (also exact) give the correctly rounded result with one multiplication or division.
    /// Longer significands, as coordinates and measurements are written (`-65.613616999999977`),
    /// are divided or multiplied exactly in integers (see ``scaledDown(_:by:)``).
    private static func fastDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = bytes.startIndex
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                if seenPoint { scale -= 1 }
            }
            index += 1
        }
        let exponent = Self.exponent(bytes, from: index)
        guard abs(exponent) < 1000 else { return nil }
        scale += exponent
        var value: Double
        if mantissa == 0 {
            value = 0
        } else if digits <= 15, abs(scale) <= 22 {
            value = Double(mantissa)
            value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
        } else if scale < 0, -scale < powersOfFive.count {
            value = scaledDown(mantissa, by: -scale)
        } else if scale >= 0, scale < powersOfFive.count {
            let (high, low) = mantissa.multipliedFullWidth(by: powersOfFive[scale])
            value = rounded(UInt128(high) << 64 | UInt128(low), exponent: scale, inexact: false)
        } else {
            return nil
        }
        return negative ? -value : value
    }

    /// 5^0 through 5^27, every power of five a `UInt64` holds.
    private static let powersOfFive: [UInt64] = (0..<28).map { power in (0..<power).reduce(1) { value, _ in value * 5 } }

    /// `mantissa / 10^power`, correctly rounded: `mantissa × 2^shift / 5^power` in integers (one
    /// 128-by-64-bit division, the shift chosen so that the quotient has 62 to 64 bits), then
    /// that quotient rounded to 53 bits with the remainder breaking ties, times `2^-(shift + power)`.
    private static func scaledDown(_ mantissa: UInt64, by power: Int) -> Double {
        let divisor = powersOfFive[power]
        let divisorWidth = 64 - divisor.leadingZeroBitCount
        let shift = 63 + divisorWidth - (64 - mantissa.leadingZeroBitCount)
        let numerator = UInt128(mantissa) << shift
        // numerator < 2^(63 + divisorWidth) <= 2^64 × divisor: the quotient fits 64 bits.
        let (quotient, remainder) = divisor.dividingFullWidth((high: UInt64(truncatingIfNeeded: numerator >> 64), low: UInt64(truncatingIfNeeded: numerator)))
        return rounded(UInt128(quotient), exponent: -shift - power, inexact: remainder != 0)
    }

    /// `value × 2^exponent` with `value` rounded to 53 bits, half to even; `inexact` says there
    /// are non-zero bits below `value`'s last (a remainder), which settle a tie upwards. The
    /// result must be a normal `Double`, as every caller's is.
    private static func rounded(_ value: UInt128, exponent: Int, inexact: Bool) -> Double {
        let width = 128 - value.leadingZeroBitCount
        guard width > 53 else {
            return Double(sign: .plus, exponent: exponent, significand: Double(UInt64(truncatingIfNeeded: value)))
        }
        let dropped = width - 53
        var significand = UInt64(truncatingIfNeeded: value >> dropped)
        let rest = value & ((1 << dropped) - 1)
        let half = UInt128(1) << (dropped - 1)
        if rest > half || (rest == half && (inexact || significand & 1 == 1)) { significand += 1 }
        return Double(sign: .plus, exponent: exponent + dropped, significand: Double(significand))
    }
}
