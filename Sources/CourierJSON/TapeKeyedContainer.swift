import Foundation

/// Where a container's coding path comes from: the first `depth` keys of its decoder's path stack
/// (containers met in the ordinary nested order), or keys of its own (`nestedContainer(…)`,
/// which outlive the stack's state when they were made), kept by the decoder: the container
/// holds only an index, so the standard library's box copies no array on every call.
struct TapePathBase {
    let depth: Int
    /// The position of the container's own path in the decoder's `explicitPaths`, or -1.
    let explicit: Int

    /// A base on the decoder's path stack, `depth` keys deep.
    init(depth: Int) {
        self.depth = depth
        explicit = -1
    }

    fileprivate init(depth: Int, explicit: Int) {
        self.depth = depth
        self.explicit = explicit
    }
}

extension TapeDecoder {
    /// A base for a container with a path of its own, `path`.
    func pathBase(explicit path: [any CodingKey]) -> TapePathBase {
        explicitPaths.append(path)
        return TapePathBase(depth: path.count, explicit: explicitPaths.count - 1)
    }

    func codingPath(_ base: TapePathBase) -> [any CodingKey] {
        base.explicit >= 0 ? explicitPaths[base.explicit] : path(depth: base.depth)
    }

    /// `body` run with the path at `base` plus `key`.
    func withPath<R>(_ base: TapePathBase, appending key: any CodingKey, _ body: () throws -> R) rethrows -> R {
        if base.explicit >= 0 {
            let saved = path
            path = explicitPaths[base.explicit]
            path.append(key)
            defer { path = saved }
            return try body()
        }
        if path.count > base.depth { path.removeSubrange(base.depth...) }
        path.append(key)
        defer { path.removeLast() }
        return try body()
    }
}

/// The members of one JSON object, for a `Decodable` type's `CodingKeys`.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    let object: Int
    let base: TapePathBase

    init(decoder: TapeDecoder, object: Int, base: TapePathBase) {
        self.decoder = decoder
        self.object = object
        self.base = base
        // Plain and snake-case names are compared with the bytes in place (snake case converted
        // while comparing, see `SnakeCaseName`). A custom strategy's names are converted once per
        // object and kept by the decoder, so this container stays one reference to copy: the
        // standard library's container box copies it for every call.
        if decoder.keyMode != .custom {
            decoder.startGuessing(Key.self, object: object)
        } else if decoder.convertedNames[object] == nil {
            var converted: [String: Int] = [:]
            var position = object + 1
            let end = decoder.next(after: object)
            let path = decoder.codingPath(base)
            while position < end {
                let name = (try? decoder.string(at: position, path: [])) ?? ""
                let key = Self.convert(name, strategy: decoder.settings.keyDecodingStrategy, path: path)
                if converted[key] == nil { converted[key] = position + 1 }
                position = decoder.next(after: position + 1)
            }
            decoder.convertedNames[object] = converted
        }
    }

    /// Member names after a custom key strategy → value index; `nil` for the other strategies.
    private var converted: [String: Int]? {
        decoder.keyMode == .custom ? decoder.convertedNames[object] : nil
    }

    var codingPath: [any CodingKey] { decoder.codingPath(base) }

    private var isSnakeCase: Bool { decoder.keyMode == .snakeCase }

    var allKeys: [Key] {
        var keys: [Key] = []
        if let converted {
            keys = converted.sorted { $0.value < $1.value }.compactMap { Key(stringValue: $0.key) }
        } else {
            // A name written twice is one key, read from its first member.
            var seen: Set<String> = []
            var position = object + 1
            let end = decoder.next(after: object)
            while position < end {
                if let written = try? decoder.string(at: position, path: []),
                    case let name = isSnakeCase ? SnakeCaseName.converted(written) : written,
                    seen.insert(name).inserted, let key = Key(stringValue: name)
                {
                    keys.append(key)
                }
                position = decoder.next(after: position + 1)
            }
            decoder.hintObject = -1
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        find(key) != nil
    }

    // MARK: Lookup

    /// The value index of the first member named `name`, or `nil`; a lookup for `key`, whose
    /// bits are `identity` (see ``identity(of:)``), when given.
    private func find(_ name: String, identity: UInt64? = nil) -> Int? {
        if let converted { return converted[name] }
        // In place when the string is contiguous (literal keys, small strings): no copy to retain.
        if let found = name.utf8.withContiguousStorageIfAvailable({ decoder.valueIndex(ofMember: $0, in: object, key: identity) }) {
            return found
        }
        var name = name
        return name.withUTF8 { decoder.valueIndex(ofMember: $0, in: object, key: identity) }
    }

    /// The value index of the first member for `key`, or `nil`: where the key's guess remembers
    /// it, or found by its name.
    @inline(__always)
    private func find(_ key: Key) -> Int? {
        let identity = Self.identity(of: key)
        if let identity, let index = decoder.rememberedValueIndex(forKey: identity, in: object) { return index }
        return find(key.stringValue, identity: identity)
    }

    /// The key's bits, when they are none, one, two, four or eight bytes with no references (a
    /// synthesized `CodingKeys` case, an integer key): equal bits are the same key, whose string
    /// is the same. `nil` for any other key.
    @inline(__always)
    private static func identity(of key: Key) -> UInt64? {
        guard _isPOD(Key.self) else { return nil }
        // A key of 3, 5, 6 or 7 bytes (rare) is looked up by its string.
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }

    private func valueIndex(_ key: Key) throws -> Int {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
                ))
        }
        return index
    }

    private func path(_ key: Key) -> [any CodingKey] {
        codingPath + [key]
    }

    /// A present, non-null member's value index.
    private func present(_ key: Key) -> Int? {
        guard let index = find(key), decoder.entries[index].kind != .null else { return nil }
        return index
    }

    // MARK: Values

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.entries[try valueIndex(key)].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.double(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.float(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(at: try valueIndex(key), path: path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(at: try valueIndex(key), path: path(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try nested(key, at: try valueIndex(key), T.self)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try decoder.bool(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try decoder.string(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key).map { try decoder.double(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(key).map { try decoder.float(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key).map { try decoder.integer(at: $0, path: path(key)) } }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try nested(key, at: $0, T.self) }
    }

    /// A value read through its own `init(from:)`, with the path extended by `key`; afterwards the
    /// lookup hint and the guesses are back after this member, whatever the nested value looked up.
    private func nested<T: Decodable>(_ key: Key, at index: Int, _ type: T.Type) throws -> T {
        // Plain leaves look nothing up and need their path only for an error.
        if case .plain(let leaf) = LeafType(T.self) {
            return try decoder.plainLeaf(leaf, as: T.self, at: index) { path(key) }
        }
        let position = decoder.hintPosition
        let (guessObject, guessNext, guessEnd) = (decoder.guessObject, decoder.guessNext, decoder.guessEnd)
        defer {
            decoder.hintObject = object
            decoder.hintPosition = position
            decoder.guessObject = guessObject
            decoder.guessNext = guessNext
            decoder.guessEnd = guessEnd
        }
        return try decoder.withPath(base, appending: key) { try decoder.unwrap(T.self, at: index) }
    }

    // MARK: Containers

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try valueIndex(key)
        let path = path(key)
        if decoder.entries[index].kind == .null {
            throw DecodingError.valueNotFound([String: Any].self, .init(codingPath: path, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        }
        guard decoder.entries[index].kind == .object else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(
                    codingPath: path,
                    debugDescription: "Expected to decode Dictionary<String, Any> but found \(decoder.describe(index)) instead."
                ))
        }
        return KeyedDecodingContainer(TapeKeyedContainer<NestedKey>(decoder: decoder, object: index, base: decoder.pathBase(explicit: path)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try valueIndex(key)
        let path = path(key)
        if decoder.entries[index].kind == .null {
            throw DecodingError.valueNotFound([Any].self, .init(codingPath: path, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        }
        guard decoder.entries[index].kind == .array else {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(
                    codingPath: path,
                    debugDescription: "Expected to decode Array<Any> but found \(decoder.describe(index)) instead."
                ))
        }
        return TapeUnkeyedContainer(decoder: decoder, array: index, base: decoder.pathBase(explicit: path))
    }

    func superDecoder() throws -> any Decoder {
        decoder.detached(at: find(JSONKey.super.stringValue) ?? decoder.nullIndex, path: codingPath + [JSONKey.super])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.detached(at: find(key.stringValue) ?? decoder.nullIndex, path: path(key))
    }

    // MARK: Key strategies

    static func convert(_ name: String, strategy: JSONDecoder.KeyDecodingStrategy, path: [any CodingKey]) -> String {
        switch strategy {
        case .convertFromSnakeCase: SnakeCaseName.converted(name)
        case .custom(let convert): convert(path + [JSONKey(name)]).stringValue
        default: name
        }
    }
}
