import Foundation

/// Reading scalars from the tape: the same values and errors as `JSONDecoder`.
extension TapeDecoder {
    /// `index`, or the error for a `type` value found null.
    func nonNull(_ type: Any.Type, at index: Int) throws -> Int {
        guard entries[index].kind != .null else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return index
    }

    func valueNotFound(_ type: Any.Type, path: [any CodingKey]) -> DecodingError {
        .valueNotFound(type, .init(codingPath: path, debugDescription: "Expected \(type) value but found null instead."))
    }

    func typeMismatch(_ type: Any.Type, at index: Int, path: [any CodingKey]) -> DecodingError {
        if entries[index].kind == .null { return valueNotFound(type, path: path) }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(describe(index)) instead."))
    }

    func bool(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        switch entries[index].kind {
        case .true: return true
        case .false: return false
        default:
            // JSONDecoder calls a null Bool a type mismatch, not a missing value: so does this.
            throw DecodingError.typeMismatch(Bool.self, .init(codingPath: path(), debugDescription: "Expected to decode Bool but found \(describe(index)) instead."))
        }
    }

    func string(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> String {
        switch entries[index].kind {
        case .string:
            let entry = entries[index]
            // Short values repeat (tags, codes, names): those read before are copied.
            if entry.length <= 15 {
                return shortStrings.string(bytes, at: Int(entry.start), count: Int(entry.length)) { text(at: index) }
            }
            return text(at: index)
        case .escapedString: return withBytes(at: index) { JSONStringUnescaper.string(from: $0) }
        default: throw typeMismatch(String.self, at: index, path: path())
        }
    }

    func integer<T: FixedWidthInteger>(at index: Int, path: @autoclosure () -> [any CodingKey], as type: T.Type = T.self) throws -> T {
        let entry = entries[index]
        let kind = entry.kind
        // Read by the parse: only the range check is left.
        if kind == .integer, entry.readLength != 0, let value = T(exactly: Int64(bitPattern: entry.value)) {
            return value
        }
        if kind == .integer, let value = withBytes(at: index, { JSONNumberReader.integer($0, as: T.self) }) {
            return value
        }
        guard kind == .integer || kind == .number else { throw typeMismatch(T.self, at: index, path: path()) }
        // With a fraction or exponent, JSONDecoder's rule: the nearest Double must be a whole
        // number in range; below 2^53 that is the value ("1.0", "1e2", even "1.0000000000000001");
        // from 2^53 up, the text read again as a decimal (see `decimalInteger`).
        if kind == .number {
            let double = entry.readLength != 0 ? Double(bitPattern: entry.value) : withBytes(at: index) { JSONNumberReader.double($0) }
            if let value = T(exactly: double) {
                if abs(double) < 9_007_199_254_740_992 { return value }
                if let exact = withBytes(at: index, { JSONNumberReader.decimalInteger($0, as: T.self) }) { return exact }
            }
        }
        throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Parsed JSON number <\(text(at: index))> does not fit in \(T.self)."))
    }

    func double(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Double {
        let entry = entries[index]
        // Read by the parse: finite, and 0 only when written as 0 (an integer's 0 may be `-0`).
        if entry.readLength != 0 {
            if entry.kind == .number { return Double(bitPattern: entry.value) }
            if entry.value != 0 { return Double(Int64(bitPattern: entry.value)) }
        }
        switch entry.kind {
        case .integer, .number:
            let value = withBytes(at: index) { JSONNumberReader.double($0) }
            // As JSONDecoder: a non-zero number too small for the type is an error, not 0.
            guard value.isFinite, value != 0 || withBytes(at: index, { JSONNumberReader.isZero($0) }) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Parsed JSON number <\(text(at: index))> does not fit in Double."))
            }
            return value
        case .string, .escapedString:
            if let special = nonConforming(at: index) { return special }
            throw typeMismatch(Double.self, at: index, path: path())
        default:
            throw typeMismatch(Double.self, at: index, path: path())
        }
    }

    func float(at index: Int, path: @autoclosure () -> [any CodingKey]) throws -> Float {
        switch entries[index].kind {
        case .integer, .number:
            // Parsed as a Float directly: rounding through Double first could round twice.
            let text = text(at: index)
            guard let value = Float(text), value.isFinite, value != 0 || withBytes(at: index, { JSONNumberReader.isZero($0) }) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Parsed JSON number <\(text)> does not fit in Float."))
            }
            return value
        case .string, .escapedString:
            if let special = nonConforming(at: index) { return Float(special) }
            throw typeMismatch(Float.self, at: index, path: path())
        default:
            throw typeMismatch(Float.self, at: index, path: path())
        }
    }
}
