/// `[Element]` for any decodable `Element`: read by ``TapeDecoder/elements(at:as:)``.
protocol DecodableArray {
    /// The array at `index`, as `T` (which is `Self`).
    static func elements<T>(of decoder: TapeDecoder, at index: Int, as type: T.Type) throws -> T
}

extension Array: DecodableArray where Element: Decodable {
    static func elements<T>(of decoder: TapeDecoder, at index: Int, as type: T.Type) throws -> T {
        // `unsafeBitCast` from a type to itself: `unwrap` asks only with `T == Self`.
        unsafeBitCast(try decoder.elements(at: index, as: Element.self), to: T.self)
    }
}
