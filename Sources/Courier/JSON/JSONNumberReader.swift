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

    /// Clinger's fast path: at most 15 significant digits (so the digits are an exact `Double`)
    /// scaled by a power of ten up to 22 (also exact) gives the correctly rounded result with one
    /// multiplication or division. Anything else returns `nil` for the full conversion.
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
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if seenPoint { scale -= 1 }
            }
            index += 1
        }
        let exponent = Self.exponent(bytes, from: index)
        guard abs(exponent) < 1000 else { return nil }
        scale += exponent
        var value = Double(mantissa)
        if mantissa != 0 {
            guard abs(scale) <= 22 else { return nil }
            value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
        }
        return negative ? -value : value
    }
}
