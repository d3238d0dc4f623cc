/// What a type that is not a leaf is, as far as ``TapeDecoder/unwrap(_:at:)`` cares.
enum TypeShape {
    /// `[Element]`, read by ``TapeDecoder/elements(at:as:)``.
    case array(any DecodableArray.Type)
    /// `[String: Value]`, read with its member names as written.
    case dictionary(any StringKeyedDictionary.Type)
    /// Anything else, read through its `init(from:)`.
    case other

    /// The shape of `type`, from the runtime.
    init(of type: Any.Type) {
        if let array = type as? any DecodableArray.Type {
            self = .array(array)
        } else if let dictionary = type as? any StringKeyedDictionary.Type {
            self = .dictionary(dictionary)
        } else {
            self = .other
        }
    }
}
