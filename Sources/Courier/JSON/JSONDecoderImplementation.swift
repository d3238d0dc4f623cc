import Foundation

/// Which implementation reads JSON responses: Courier's ``UTF8JSONDecoder`` (the default) or
/// Foundation's `JSONDecoder`.
///
/// Either way the strategies and user info come from ``Configuration/decoder`` (or the endpoint's
/// ``Request/decoder``). Switching changes speed and, in the few cases ``UTF8JSONDecoder`` lists,
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
    /// ``UTF8JSONDecoder``: one pass over the bytes, several times faster than `JSONDecoder`.
    /// A decoder set to read JSON5 or to assume a top-level dictionary is handed to `JSONDecoder`,
    /// which alone supports those.
    case utf8
    /// Foundation's `JSONDecoder`.
    case foundation
}

/// The decoder a response is read with: the configured `JSONDecoder`'s settings, applied by the
/// chosen implementation.
struct ResponseJSONDecoder: Sendable {
    let settings: JSONDecoder
    let implementation: JSONDecoderImplementation

    init(settings: JSONDecoder, implementation: JSONDecoderImplementation) {
        self.settings = settings
        self.implementation = implementation
    }

    /// The decoder `request` asks for, or else the configuration's.
    init<Response>(for request: Request<Response>, configuration: Configuration) {
        self.init(
            settings: request.decoder ?? configuration.decoder,
            implementation: request.jsonDecoderImplementation ?? configuration.jsonDecoderImplementation
        )
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if implementation == .utf8, !settings.allowsJSON5, !settings.assumesTopLevelDictionary {
            return try UTF8JSONDecoder(settingsOf: settings).decode(type, from: data)
        }
        return try settings.decode(type, from: data)
    }
}
