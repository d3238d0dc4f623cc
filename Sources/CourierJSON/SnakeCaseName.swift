import Foundation

/// Compares a snake_case member name with a coding key as `convertFromSnakeCase` would convert
/// it, byte by byte and without making the converted string: `user_id` matches `userId`.
enum SnakeCaseName {
    /// `user_id` → `userId`, as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` does it:
    /// leading and trailing underscores kept, a name without inner underscores left alone.
    static func converted(_ name: String) -> String {
        guard let first = name.firstIndex(where: { $0 != "_" }) else { return name }
        var last = name.index(before: name.endIndex)
        while last > first, name[last] == "_" { name.formIndex(before: &last) }
        let core = name[first...last]
        let components = core.split(separator: "_")
        let joined =
            components.count == 1
            ? String(core)
            : ([components[0].lowercased()] + components.dropFirst().map { $0.capitalized }).joined()
        return String(name[..<first]) + joined + String(name[name.index(after: last)...])
    }

    /// Whether `name`, converted, equals `converted`; `nil` when the name is not plain ASCII
    /// letters and underscores (digits only in its first word): then the caller converts through
    /// `String` as Foundation does, for the same result.
    static func matches(_ name: UnsafeBufferPointer<UInt8>, converted wanted: UnsafeBufferPointer<UInt8>) -> Bool? {
        let underscore = UInt8(ascii: "_")
        guard let first = name.firstIndex(where: { $0 != underscore }) else {
            return same(name, wanted)  // only underscores: unchanged
        }
        var last = name.endIndex - 1
        while last > first, name[last] == underscore { last -= 1 }
        let core = first...last
        guard name[core].contains(underscore) else { return same(name, wanted) }  // one word: unchanged

        var output = 0
        func emit(_ byte: UInt8) -> Bool {
            guard output < wanted.count, wanted[output] == byte else { return false }
            output += 1
            return true
        }
        for _ in name.startIndex..<first where !emit(underscore) { return false }
        var wordIndex = 0
        var position = first
        while position <= last {
            if name[position] == underscore {
                position += 1
                continue
            }
            // One word: the first lowercased entirely, the others capitalized.
            var offset = 0
            while position <= last, name[position] != underscore {
                let byte = name[position]
                // Foundation's `capitalized` starts a new word after a digit ("b2c" → "B2C"):
                // words after the first with digits go the slow way.
                guard byte < 0x80, isLetter(byte) || (isDigit(byte) && wordIndex == 0) else { return nil }
                let out = (offset == 0 && wordIndex > 0) ? upper(byte) : lower(byte)
                if !emit(out) { return false }
                offset += 1
                position += 1
            }
            wordIndex += 1
        }
        for _ in (last + 1)..<name.endIndex where !emit(underscore) { return false }
        return output == wanted.count
    }

    /// Whether the two runs of bytes are equal: lengths first, then a plain loop (the generic
    /// `elementsEqual` costs several times more on these short names).
    private static func same(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for offset in 0..<lhs.count where lhs[offset] != rhs[offset] { return false }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        isLetter(byte) ? byte | 0x20 : byte
    }

    private static func upper(_ byte: UInt8) -> UInt8 {
        isLetter(byte) ? byte & ~0x20 : byte
    }
}
