import Foundation

/// The `Decoder` that ``UTF8JSONDecoder`` hands to `init(from:)`: a position in a ``JSONTape``.
///
/// One instance serves a whole document: reading a nested value moves ``index`` there and back,
/// and the coding path is one stack pushed and popped around it, so nested values cost no
/// allocation of their own. Containers remember how deep the path was when they were made.
final class TapeDecoder: Decoder, SingleValueDecodingContainer {
    /// How member names compare with coding keys, from the key strategy.
    enum KeyMode {
        case plain, snakeCase, custom

        /// `nil` for a strategy this decoder cannot follow: then `JSONDecoder` decodes.
        init?(_ strategy: JSONDecoder.KeyDecodingStrategy) {
            switch strategy {
            case .useDefaultKeys: self = .plain
            case .convertFromSnakeCase: self = .snakeCase
            case .custom: self = .custom
            @unknown default: return nil
            }
        }
    }

    /// Keeps ``bytes`` and ``entries`` alive.
    let tape: JSONTape
    let bytes: UnsafeBufferPointer<UInt8>
    let entries: UnsafeBufferPointer<JSONTape.Entry>
    let nullIndex: Int
    /// The strategies and user info.
    let settings: UTF8JSONDecoder
    let keyMode: KeyMode
    // The decoder is used from one thread at a time, by the `decode` call that made it: its
    // mutable state skips the run-time exclusivity checks, which cost more than the reads.

    /// The value `container(keyedBy:)`, `unkeyedContainer()` and the single-value reads see.
    @exclusivity(unchecked) var index = 0
    /// Coding keys from the top down to ``index``.
    @exclusivity(unchecked) var path: [any CodingKey] = []
    /// The paths of containers made by `nestedContainer(…)` (see ``TapePathBase``).
    @exclusivity(unchecked) var explicitPaths: [[any CodingKey]] = []
    /// The object where the last member lookup ended, and the entry after that member: the next
    /// lookup in the same object starts there, so members read in document order are found at
    /// the first comparison.
    @exclusivity(unchecked) var hintObject = -1
    @exclusivity(unchecked) var hintPosition = 0
    /// Per key type met, where its keys' members were found, in the order it asked them (see
    /// `TapeDecoder+MemberGuesses`); made on first use.
    @exclusivity(unchecked) var guesses: UnsafeMutablePointer<MemberGuess>?
    @exclusivity(unchecked) var guessCapacity = 0
    @exclusivity(unchecked) var guessBlockCount = 0
    /// The first key type met, whose guesses are the first slots, found without the table.
    @exclusivity(unchecked) var firstGuessedKeys: ObjectIdentifier?
    @exclusivity(unchecked) var guessBlocks = TypeTable<Int>()
    /// The object whose container made the guesses current, and its next and last slots.
    @exclusivity(unchecked) var guessObject = -1
    @exclusivity(unchecked) var guessNext = 0
    @exclusivity(unchecked) var guessEnd = 0
    /// Short strings read before (see ``ShortStringTable``).
    @exclusivity(unchecked) var shortStrings = ShortStringTable()
    /// Per entry, whether an object may repeat a member name (see ``mayRepeatNames(_:snakeCase:)``);
    /// made on first use.
    @exclusivity(unchecked) var nameStates: UnsafeMutablePointer<UInt8>?
    /// Per object, its member names after a custom key strategy → value index.
    @exclusivity(unchecked) var convertedNames: [Int: [String: Int]] = [:]
    /// Whether the types ``unwrap(_:at:)`` meets are arrays or dictionaries, asked once each.
    @exclusivity(unchecked) private var shapes = TypeTable<TypeShape>()

    init(tape: JSONTape, settings: UTF8JSONDecoder, keyMode: KeyMode) {
        self.tape = tape
        bytes = tape.bytes
        entries = tape.entries
        nullIndex = tape.nullIndex
        self.settings = settings
        self.keyMode = keyMode
    }

    deinit {
        nameStates?.deallocate()
        shortStrings.deallocate()
        guesses?.deallocate()
    }

    private init(sharing other: TapeDecoder, index: Int, path: [any CodingKey]) {
        tape = other.tape
        bytes = other.bytes
        entries = other.entries
        nullIndex = other.nullIndex
        settings = other.settings
        keyMode = other.keyMode
        self.index = index
        self.path = path
    }

    var codingPath: [any CodingKey] { path }
    var userInfo: [CodingUserInfoKey: Any] { settings.userInfo }

    /// The first `depth` keys of the path.
    func path(depth: Int) -> [any CodingKey] {
        Array(path.prefix(depth))
    }

    /// A decoder of its own for the value at `index` (for `superDecoder()`).
    func detached(at index: Int, path: [any CodingKey]) -> TapeDecoder {
        TapeDecoder(sharing: self, index: index, path: path)
    }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entry = entries[index]
        guard entry.kind == .object else {
            throw mismatch([String: Any].self, at: index, path: path, container: "keyed")
        }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(decoder: self, object: index, base: TapePathBase(depth: path.count)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard entries[index].kind == .array else {
            throw mismatch([Any].self, at: index, path: path, container: "unkeyed")
        }
        return TapeUnkeyedContainer(decoder: self, array: index, base: TapePathBase(depth: path.count))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    /// The error for a container asked of a value that is not one.
    private func mismatch(_ type: Any.Type, at index: Int, path: [any CodingKey], container: String) -> DecodingError {
        if entries[index].kind == .null {
            return .valueNotFound(type, .init(codingPath: path, debugDescription: "Cannot get \(container) decoding container -- found null value instead"))
        }
        return .typeMismatch(type, .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(describe(index)) instead."))
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { entries[index].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: index, path: path) }
    func decode(_ type: String.Type) throws -> String { try string(at: index, path: path) }
    func decode(_ type: Double.Type) throws -> Double { try double(at: index, path: path) }
    func decode(_ type: Float.Type) throws -> Float { try float(at: index, path: path) }
    func decode(_ type: Int.Type) throws -> Int { try integer(at: index, path: path) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(at: index, path: path) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(at: index, path: path) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(at: index, path: path) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(at: index, path: path) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(at: index, path: path) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(at: index, path: path) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(at: index, path: path) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(at: index, path: path) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(at: index, path: path) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let saved = index
        defer { index = saved }
        return try unwrap(type, at: index)
    }

    // MARK: Values

    /// The value at `index` as `T`, the path already ending in its key.
    func unwrap<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        // The common leaves first, without a trip through their `init(from:)`.
        // `unsafeBitCast` from a type to itself: each branch runs only when `T` is that type.
        switch LeafType(T.self) {
        case .plain(let leaf): return try plainLeaf(leaf, as: T.self, at: index) { path }
        // JSONDecoder names these types when it finds null, and calls no custom strategy.
        case .date: return unsafeBitCast(try date(at: try nonNull(Date.self, at: index)), to: T.self)
        case .data: return unsafeBitCast(try data(at: try nonNull(Data.self, at: index)), to: T.self)
        case .url: return unsafeBitCast(try url(at: try nonNull(URL.self, at: index)), to: T.self)
        case .decimal: return unsafeBitCast(try decimal(at: index), to: T.self)
        case nil: break
        }
        // Only an array is read as `[Element]`, and only an object as `[String: Value]` (with a
        // key strategy): for any other value, `init(from:)` throws the same error.
        // No `as? T` in this function: a cast to `T` makes every call look up `Optional<T>`'s
        // metadata on entry, for the leaves too.
        // Only an array is read as `[Element]`, and only an object as `[String: Value]` (with a
        // key strategy, which such a dictionary ignores): for any other value, `init(from:)`
        // throws the same error.
        let kind = entries[index].kind
        if kind == .array || (kind == .object && keyMode != .plain) {
            switch shapes.answer(for: T.self, { KnownTypeShapes.shared.shape(of: T.self) }) {
            case .array(let array):
                if kind == .array { return try array.elements(of: self, at: index, as: T.self) }
            case .dictionary(let dictionary):
                // As JSONDecoder: a `[String: Value]`'s keys are the member names as written,
                // whatever the key strategy.
                if kind == .object { return try dictionary.members(of: self, at: index, as: T.self) }
            case .other:
                break
            }
        }
        let saved = self.index
        self.index = index
        defer { self.index = saved }
        return try T(from: self)
    }

    /// The value at `index` as `T`, which is the plain leaf `leaf`, read straight from the tape,
    /// its coding path made by `path` only for an error. Not `T?`: an optional of a generic type
    /// costs a metadata lookup per call.
    @inline(__always)
    func plainLeaf<T>(_ leaf: LeafType.Plain, as type: T.Type, at index: Int, path: () -> [any CodingKey]) throws -> T {
        // `unsafeBitCast` from a type to itself: each branch runs only when `T` is that type.
        switch leaf {
        case .string: unsafeBitCast(try string(at: index, path: path()), to: T.self)
        case .int: unsafeBitCast(try integer(at: index, path: path(), as: Int.self), to: T.self)
        case .double: unsafeBitCast(try double(at: index, path: path()), to: T.self)
        case .bool: unsafeBitCast(try bool(at: index, path: path()), to: T.self)
        case .strings: unsafeBitCast(try leaves(at: index, path: path) { try self.string(at: $0, path: path() + [JSONKey(index: $1)]) }, to: T.self)
        case .ints: unsafeBitCast(try leaves(at: index, path: path) { try self.integer(at: $0, path: path() + [JSONKey(index: $1)], as: Int.self) }, to: T.self)
        case .doubles: unsafeBitCast(try leaves(at: index, path: path) { try self.double(at: $0, path: path() + [JSONKey(index: $1)]) }, to: T.self)
        }
    }

    /// The elements of the array at `index`, each through ``unwrap(_:at:)``: what
    /// `Array.init(from:)` does through an unkeyed container, the same values and errors,
    /// without the container's existential and dynamic calls per element.
    func elements<Element: Decodable>(at index: Int, as type: Element.Type) throws -> [Element] {
        guard entries[index].kind == .array else {
            throw mismatch([Any].self, at: index, path: path, container: "unkeyed")
        }
        let count = Int(entries[index].count)
        let base = TapePathBase(depth: path.count)
        var position = index + 1
        // Plain leaves (a polygon's `[Double]` points) need no path of their own but in an error.
        var plain: LeafType.Plain?
        if case .plain(let leaf) = LeafType(Element.self) { plain = leaf }
        return try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            for offset in 0..<count {
                let element: Element
                if let plain {
                    element = try plainLeaf(plain, as: Element.self, at: position) { path + [JSONKey(index: offset)] }
                } else {
                    element = try withPath(base, appending: JSONKey(index: offset)) { try unwrap(Element.self, at: position) }
                }
                buffer.initializeElement(at: offset, to: consume element)
                initialized += 1
                position = next(after: position)
            }
        }
    }

    /// The elements of the array at `index`, each read by `read` (given its index and its
    /// position); the same errors as through an unkeyed container. The array's coding path is
    /// made by `path`, only for an error.
    private func leaves<Element>(at index: Int, path: () -> [any CodingKey], _ read: (Int, Int) throws -> Element) throws -> [Element] {
        guard entries[index].kind == .array else {
            throw mismatch([Any].self, at: index, path: path(), container: "unkeyed")
        }
        let count = Int(entries[index].count)
        // Appended to reserved room: the specialized path (`unsafeUninitializedCapacity` looks up
        // the storage's generic metadata on every call).
        var elements: [Element] = []
        elements.reserveCapacity(count)
        var position = index + 1
        for offset in 0..<count {
            elements.append(try read(position, offset))
            position = next(after: position)
        }
        return elements
    }

    /// Whether the entry at `index` is a container.
    func isContainer(_ index: Int) -> Bool {
        entries[index].kind.rawValue <= JSONTape.Kind.array.rawValue
    }

    /// The index of the entry after the value at `index` and everything inside it.
    func next(after index: Int) -> Int {
        isContainer(index) ? index + 1 + Int(entries[index].length) : index + 1
    }

    /// "a string", "a number", …: how errors name what was found.
    func describe(_ index: Int) -> String {
        switch entries[index].kind {
        case .object: "a dictionary"
        case .array: "an array"
        case .string, .escapedString: "a string"
        case .integer, .number: "number \(text(at: index))"
        case .true, .false: "bool"
        case .null: "null"
        }
    }

    /// The bytes of a scalar (a string's without its quotes).
    func withBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let entry = entries[index]
        return try body(UnsafeBufferPointer(rebasing: bytes[Int(entry.start)..<entry.end]))
    }

    /// A scalar's text as written.
    func text(at index: Int) -> String {
        withBytes(at: index) { String(validatedUTF8: $0) }
    }
}
