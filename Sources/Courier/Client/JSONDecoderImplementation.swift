import Foundation

/// Which implementation reads JSON responses: Courier's `UTF8JSONDecoder` (the default) or
/// Foundation's `JSONDecoder`.
///
/// Either way the strategies and user info come from ``Configuration/decoder`` (or the endpoint's
/// ``Request/decoder``). Switching changes speed and, in the few cases `UTF8JSONDecoder` lists,
/// behaviour: trailing commas, input that is not UTF-8, and the coding path of a number that does
/// not fit its type or a date that is not ISO 8601.
///
/// ```swift
/// let client = Client(baseURL: base) {
///     $0.decoder.keyDecodingStrategy = .convertFromSnakeCase  // honoured by both
///     $0.jsonDecoderImplementation = .foundation              // JSONDecoder for every response
/// }
/// ```
public enum JSONDecoderImplementation: Sendable, Equatable {
    /// `UTF8JSONDecoder`: one pass over the bytes, several times faster than `JSONDecoder`.
    /// A decoder set to read JSON5 or to assume a top-level dictionary is handed to `JSONDecoder`,
    /// which alone supports those.
    case utf8
    /// Foundation's `JSONDecoder`.
    case foundation
}
