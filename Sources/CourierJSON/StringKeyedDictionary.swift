/// `[String: Value]`, which JSONDecoder reads with member names as written whatever the key
/// strategy: so does ``TapeDecoder``.
protocol StringKeyedDictionary {
    init(members decoder: TapeDecoder, at index: Int) throws
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
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
