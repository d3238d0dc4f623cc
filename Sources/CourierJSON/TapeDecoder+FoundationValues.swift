import Foundation

/// Reading the Foundation types with strategies of their own: dates, data, decimals, URLs.
extension TapeDecoder {
    /// A string standing for an infinity or NaN, under `.convertFromString`.
    func nonConforming(at index: Int) -> Double? {
        // JSONDecoder compares the string as written: `"\u004eaN"` is not "NaN".
        guard case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = settings.nonConformingFloatDecodingStrategy,
            entries[index].kind == .string
        else { return nil }
        let text = text(at: index)
        switch text {
        case positiveInfinity: return .infinity
        case negativeInfinity: return -.infinity
        case nan: return .nan
        default: return nil
        }
    }

    func decimal(at index: Int) throws -> Decimal {
        let kind = entries[index].kind
        guard kind == .integer || kind == .number else { throw typeMismatch(Decimal.self, at: index, path: path) }
        let text = text(at: index)
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Parsed JSON number <\(text)> does not fit in Decimal."))
        }
        return value
    }

    func url(at index: Int) throws -> URL {
        let text = try string(at: index, path: path)
        guard let url = URL(string: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Invalid URL string."))
        }
        return url
    }

    func date(at index: Int) throws -> Date {
        switch settings.dateDecodingStrategy {
        case .deferredToDate:
            return try at(index) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try double(at: index, path: path))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try double(at: index, path: path) / 1000)
        case .iso8601:
            // The common form read here; any other text (other forms, errors) by Foundation.
            let kind = entries[index].kind
            if kind == .string, let date = withBytes(at: index, { ISO8601DateReader.date(from: $0) }) {
                return date
            }
            guard kind == .string || kind == .escapedString else { throw typeMismatch(String.self, at: index, path: path) }
            return try foundationValue(Date.self, at: index)
        case .custom(let decode):
            return try at(index) { try decode(self) }
        #if canImport(Darwin)
        // A case of its own in Apple's Foundation; on Linux `.formatted` is a `.custom` closure.
        case .formatted(let formatter):
            let text = try string(at: index, path: path)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        #endif
        @unknown default:
            return try foundationValue(Date.self, at: index)
        }
    }

    func data(at index: Int) throws -> Data {
        switch settings.dataDecodingStrategy {
        case .deferredToData:
            return try at(index) { try Data(from: self) }
        case .base64:
            let text = try string(at: index, path: path)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let decode):
            return try at(index) { try decode(self) }
        @unknown default:
            return try foundationValue(Data.self, at: index)
        }
    }

    /// `body` run with the decoder at `index`.
    func at<T>(_ index: Int, _ body: () throws -> T) throws -> T {
        let saved = self.index
        self.index = index
        defer { self.index = saved }
        return try body()
    }

    /// One scalar decoded by `JSONDecoder` with the same settings: for a strategy added to
    /// Foundation after this decoder was written.
    func foundationValue<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        let entry = entries[index]
        let isString = entry.kind == .string || entry.kind == .escapedString
        let lower = Int(entry.start) - (isString ? 1 : 0)
        let upper = entry.end + (isString ? 1 : 0)
        guard !isContainer(index) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "This strategy reads only strings and numbers."))
        }
        do {
            return try settings.foundationDecoder().decode(type, from: Data(UnsafeBufferPointer(rebasing: bytes[lower..<upper])))
        } catch DecodingError.dataCorrupted(let context) {
            throw DecodingError.dataCorrupted(.init(codingPath: path + context.codingPath, debugDescription: context.debugDescription, underlyingError: context.underlyingError))
        }
    }
}
