import Foundation

/// The elements of one JSON array, read in order.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let base: TapePathBase
    /// The entry of the next element.
    private var position: Int
    private let total: Int
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder, array: Int, base: TapePathBase) {
        self.decoder = decoder
        self.base = base
        position = array + 1
        total = Int(decoder.entries[array].count)
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    private var elementPath: [any CodingKey] { codingPath + [JSONKey(index: currentIndex)] }

    /// The next element's entry, or the error for reading past the end.
    private func next(_ type: Any.Type) throws -> Int {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: elementPath, debugDescription: "Unkeyed container is at end."))
        }
        return position
    }

    private mutating func advance() {
        position = decoder.next(after: position)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        guard decoder.entries[try next(Never.self)].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let value: Bool = try decoder.bool(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let value: String = try decoder.string(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let value: Double = try decoder.double(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let value: Float = try decoder.float(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let value: Int = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let value: Int8 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let value: Int16 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let value: Int32 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let value: Int64 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let value: UInt = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let value: UInt8 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let value: UInt16 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let value: UInt32 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let value: UInt64 = try decoder.integer(at: try next(type), path: elementPath)
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = try next(type)
        let value = try decoder.withPath(base, appending: JSONKey(index: currentIndex)) { try decoder.unwrap(T.self, at: index) }
        advance()
        return value
    }

    // MARK: Optional values

    // JSONDecoder's `decodeIfPresent` moves on at the end too (the standard library's default
    // does not): `currentIndex` counts every call, as it does there.

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try ifPresent { try $0.decode(type) } }

    /// `nil`, one step on, at the end or at a null; otherwise the element `decode` reads.
    private mutating func ifPresent<T>(_ decode: (inout Self) throws -> T) throws -> T? {
        if isAtEnd {
            currentIndex += 1
            return nil
        }
        if decoder.entries[position].kind == .null {
            advance()
            return nil
        }
        return try decode(&self)
    }

    // MARK: Containers

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = elementPath
        let index = try next(KeyedDecodingContainer<NestedKey>.self)
        guard decoder.entries[index].kind == .object else {
            throw mismatch([String: Any].self, at: index, path: path)
        }
        advance()
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, base: decoder.pathBase(explicit: path)))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = elementPath
        let index = try next((any UnkeyedDecodingContainer).self)
        guard decoder.entries[index].kind == .array else {
            throw mismatch([Any].self, at: index, path: path)
        }
        advance()
        return TapeUnkeyedContainer(decoder: decoder, array: index, base: decoder.pathBase(explicit: path))
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = elementPath
        guard !isAtEnd else {
            throw DecodingError.valueNotFound((any Decoder).self, .init(codingPath: path, debugDescription: "Cannot get superDecoder() -- unkeyed container is at end."))
        }
        let index = position
        advance()
        return decoder.detached(at: index, path: path)
    }

    private func mismatch(_ type: Any.Type, at index: Int, path: [any CodingKey]) -> DecodingError {
        if decoder.entries[index].kind == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "Cannot get a nested container -- found null value instead"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(decoder.describe(index)) instead."))
    }
}
