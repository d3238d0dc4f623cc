extension JSONTape.Parser {
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, its value read on the way when
    /// the fast paths decide it (up to 18 digits for an integer, 19 significant digits for
    /// any other number; see ``JSONNumberReader/double(mantissa:scale:)``).
    mutating func number() throws(JSONSyntaxError) {
        // The scan keeps its place in a local (a register), not in `position`.
        let bytes = self.bytes
        let start = position
        var index = position
        var isInteger = true
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        var mantissa: UInt64 = 0
        var digitCount = 0
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        let first = bytes[index]
        if first == UInt8(ascii: "0") {
            index += 1
            digitCount = 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw JSONSyntaxError(.leadingZero, at: start) }
        } else if Self.isDigit(first) {
            digitCount = Self.readDigits(bytes, from: &index, into: &mantissa)
        } else {
            throw JSONSyntaxError(.invalidNumber, at: index)
        }
        var scale = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try Self.requireDigit(bytes, at: index)
            let fractionDigits = Self.readDigits(bytes, from: &index, into: &mantissa)
            scale = -fractionDigits
            digitCount += fractionDigits
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            try Self.requireDigit(bytes, at: index)
            // Capped far past any `Double`, so that no exponent overflows.
            var exponent = 0
            while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
                exponent = min(exponent &* 10 &+ Int(digit), 100_000)
                index += 1
            }
            scale += negativeExponent ? -exponent : exponent
        }
        position = index
        let length = index - start
        if length <= Int(UInt16.max) {
            if isInteger {
                // Up to 18 digits fit an `Int64` whatever they are.
                if digitCount <= 18 {
                    let value = negative ? 0 &- Int64(mantissa) : Int64(mantissa)
                    append(Entry(kind: .integer, start: start, length: length, value: UInt64(bitPattern: value)))
                    return
                }
            } else if JSONNumberReader.significantDigits(digitCount, UnsafeBufferPointer(rebasing: bytes[digitsStart..<index])) <= 19,
                let magnitude = JSONNumberReader.double(mantissa: mantissa, scale: scale)
            {
                let value = negative ? -magnitude : magnitude
                append(Entry(kind: .number, start: start, length: length, value: value.bitPattern))
                return
            }
        }
        append(Entry(kind: isInteger ? .integer : .number, start: UInt32(start), length: UInt32(length), count: 0))
    }

    /// Digits of `bytes` from `index` on (which ends after them), appended to `mantissa`
    /// (wrapping past 19 digits); how many.
    @inline(__always)
    static func readDigits(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, into mantissa: inout UInt64) -> Int {
        let start = index
        if let base = bytes.baseAddress {
            // Eight bytes at a time where eight are left (so the read stays inside the
            // buffer): the digits among them in one step.
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let others = JSONNumberReader.nonDigitBytes(word)
                let digits = others == 0 ? 8 : others.trailingZeroBitCount >> 3
                if digits > 0 {
                    mantissa = mantissa &* JSONNumberReader.scale(by: digits) &+ JSONNumberReader.digitsValue(word, count: digits)
                    index += digits
                }
                if digits < 8 { return index - start }
            }
        }
        while index < bytes.count, case let digit = bytes[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        return index - start
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// The byte at `index` must be a digit.
    @inline(__always)
    static func requireDigit(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd, at: index) }
        guard isDigit(bytes[index]) else { throw JSONSyntaxError(.invalidNumber, at: index) }
    }

    /// A string from its opening quote; `position` ends after the closing quote.
    ///
}
