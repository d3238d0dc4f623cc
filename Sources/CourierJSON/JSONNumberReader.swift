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

    /// Powers of ten that a `UInt64` holds, 10^0 through 10^8 (for a run of up to eight digits).
    private static let smallPowersOfTen: [UInt64] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// Any number as the nearest `Double` (correctly rounded; infinite when out of range).
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        if let fast = fastDouble(bytes) { return fast }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// `mantissa × 10^scale`, correctly rounded, for a significand of at most 19 digits; `nil`
    /// for the rare cases only the full conversion decides (see ``EiselLemire``). Never `nil`,
    /// infinite or subnormal for a non-zero `mantissa`, and 0 only for a zero `mantissa`.
    ///
    /// Clinger's fast path first: a significand up to 2^53 and a power of ten up to 22 (both exact
    /// `Double`s) give the correctly rounded result with one multiplication or division.
    static func double(mantissa: UInt64, scale: Int) -> Double? {
        if mantissa == 0 { return 0 }
        if mantissa <= 1 << 53, scale >= -22, scale <= 22 {
            let value = Double(mantissa)
            // `scale` is within the table's 0...22 on either side.
            return exactPowersOfTen.withUnsafeBufferPointer { powers in
                scale < 0 ? value / powers[-scale] : value * powers[scale]
            }
        }
        return EiselLemire.double(mantissa: mantissa, power: scale)
    }

    /// A number's bytes as ``double(mantissa:scale:)`` reads them, for a number the parse did not
    /// read (see `JSONTape.Entry.readLength`); `nil` for the full conversion.
    private static func fastDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        // The tape checked the grammar: `-? digits (. digits)? ([eE] [+-]? digits)?`.
        var index = bytes.startIndex
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var mantissa: UInt64 = 0
        var digitCount = 0
        var fractionStart: Int?
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                fractionStart = index + 1
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digitCount += 1
            }
            index += 1
        }
        let scale = fractionStart.map { $0 - index } ?? 0
        guard significantDigits(digitCount, UnsafeBufferPointer(rebasing: bytes[digitsStart..<index])) <= 19 else { return nil }
        let exponent = Self.exponent(bytes, from: index)
        guard abs(exponent) < 1000, let value = double(mantissa: mantissa, scale: scale + exponent) else { return nil }
        return negative ? -value : value
    }

    /// How many of a significand's `digitCount` digits count: all but its leading zeros (a number
    /// of more than 19 digits may still fit a `UInt64` exactly). `digits` are its digits and point.
    static func significantDigits(_ digitCount: Int, _ digits: UnsafeBufferPointer<UInt8>) -> Int {
        guard digitCount > 19 else { return digitCount }
        var count = digitCount
        for byte in digits {
            if byte == UInt8(ascii: "0") {
                count -= 1
            } else if byte != UInt8(ascii: ".") {
                break
            }
        }
        return count
    }

    /// The high bit of each of the eight bytes (first byte lowest) that is not an ASCII digit. The
    /// lowest bit set marks the first such byte exactly; bits above it may be false alarms.
    @inline(__always)
    static func nonDigitBytes(_ word: UInt64) -> UInt64 {
        // A digit XOR 0x30 is 0...9, and adding 0x76 leaves its high bit clear; anything else sets it.
        let offsets = word ^ 0x3030_3030_3030_3030
        return ((offsets &+ 0x7676_7676_7676_7676) | offsets) & 0x8080_8080_8080_8080
    }

    /// The value of the first `count` (1...8) ASCII digits of `word`, the first in the lowest byte.
    @inline(__always)
    static func digitsValue(_ word: UInt64, count: Int) -> UInt64 {
        // The digits moved to the top bytes, zeros below them; then pairs, fours and all eight,
        // each step one multiplication.
        var value = (word &<< (64 - 8 * count)) & 0x0F0F_0F0F_0F0F_0F0F
        value = (value &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }

    /// 10^`count` for a run of `count` (0...8) digits.
    @inline(__always)
    static func scale(by count: Int) -> UInt64 {
        smallPowersOfTen.withUnsafeBufferPointer { $0[count] }
    }
}
