/// Why a JSON text is not valid, and where: the underlying error of the
/// `DecodingError.dataCorrupted` that ``UTF8JSONDecoder`` throws for it.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Reason: String, Sendable, Equatable {
        case unexpectedEnd = "The JSON text ends in the middle of a value"
        case unexpectedCharacter = "Unexpected character"
        case trailingComma = "A comma before the end of an object or array (RFC 8259 allows none)"
        case expectedMemberName = "Expected a member name in quotes"
        case expectedColon = "Expected a colon after the member name"
        case expectedCommaOrEndOfObject = "Expected a comma or the end of the object"
        case expectedCommaOrEndOfArray = "Expected a comma or the end of the array"
        case leadingZero = "A number with a leading zero"
        case invalidNumber = "Not a valid number"
        case unterminatedString = "A string without its closing quote"
        case controlCharacterInString = "A control character in a string must be escaped"
        case invalidEscape = "Not a valid escape sequence"
        case loneSurrogate = "A UTF-16 surrogate escape without its pair"
        case invalidUTF8 = "Not valid UTF-8"
        case tooDeeplyNested = "Arrays and objects are nested more than 512 deep"
        case documentTooLarge = "The JSON text is 4 GiB or larger"
    }

    /// What is wrong.
    public let reason: Reason
    /// The byte offset where the problem was found.
    public let offset: Int

    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The reason and the byte offset.
    public var description: String { "\(reason.rawValue) at byte \(offset)." }
}
