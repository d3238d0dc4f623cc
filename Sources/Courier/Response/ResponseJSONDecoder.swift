import CourierJSON
import Foundation

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
