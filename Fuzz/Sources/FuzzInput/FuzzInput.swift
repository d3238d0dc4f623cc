/// The bytes libFuzzer hands a target, read front to back: a few leading bytes choose options,
/// the rest is the input under test.
public struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    /// Wraps the `count` bytes at `start`.
    public init(_ start: UnsafeRawPointer?, _ count: Int) {
        bytes = UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : count)
    }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// One of `choices`, picked by the next byte.
    public mutating func choose<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }

    /// The bytes not read yet.
    public var rest: [UInt8] { index < bytes.count ? Array(bytes[index...]) : [] }

    /// The bytes not read yet, as text (invalid UTF-8 repaired, as a server's field would be).
    public var restText: String { String(decoding: rest, as: UTF8.self) }
}

/// Runs `decode` and stops the process when it throws anything but a `DecodingError`: the decoder
/// promises that error type alone, whatever the input.
public func expectDecodingErrorOnly(_ decode: () throws -> Void) {
    do {
        try decode()
    } catch is DecodingError {
        return
    } catch {
        fatalError("the decoder threw something other than a DecodingError: \(error)")
    }
}
