/// `[String: Value]`, which JSONDecoder reads with member names as written whatever the key
/// strategy: so does ``TapeDecoder``.
protocol StringKeyedDictionary {
    /// The object at `index`, as `T` (which is `Self`).
    static func members<T>(of decoder: TapeDecoder, at index: Int, as type: T.Type) throws -> T
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func members<T>(of decoder: TapeDecoder, at index: Int, as type: T.Type) throws -> T {
        // `unsafeBitCast` from a type to itself: `unwrap` asks only with `T == Self` (an `as?`
        // cast would check the dictionary's elements one by one).
        unsafeBitCast(try Self(members: decoder, at: index), to: T.self)
    }

    init(members decoder: TapeDecoder, at index: Int) throws {
        guard decoder.entries[index].kind == .object else {
            let saved = decoder.index
            decoder.index = index
            defer { decoder.index = saved }
            self = try Self(from: decoder)  // the same errors as a plain dictionary
            return
        }
        self.init(minimumCapacity: Int(decoder.entries[index].count))
        var position = index + 1
        let end = decoder.next(after: index)
        while position < end {
            let name = try decoder.string(at: position, path: decoder.path)
            decoder.path.append(JSONKey(name))
            defer { decoder.path.removeLast() }
            if self[name] == nil { self[name] = try decoder.unwrap(Value.self, at: position + 1) }
            position = decoder.next(after: position + 1)
        }
    }
}
