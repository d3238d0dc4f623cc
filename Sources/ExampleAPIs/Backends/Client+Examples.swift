import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One configured client per example backend: each backend's error format, JSON conventions and
/// common parameters are stated here, once.
extension Client {
    /// The social backend's client: `{"message"}` errors, snake_case keys; the access token of
    /// `session` as `Authorization: JWT <token>`, renewed once when it expires.
    /// - Parameters:
    ///   - environment: Where the backends are.
    ///   - session: The signed-in user's tokens (``AuthService/session``).
    ///   - transport: How requests travel.
    public static func social(
        environment: ServerEnvironment,
        session: AuthenticationSession? = nil,
        transport: any Transport = .urlSession()
    ) -> Client {
        Client(backend: .social, environment: environment, transport: transport) {
            $0.errorFormat = .message
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
            $0.timeout = .seconds(20)
            if let session { $0.middleware = [AuthenticationMiddleware(session, scheme: .jwt)] }
        }
    }

    /// The movie backend's client: TMDB errors, snake_case keys, ISO 8601 dates with fractional
    /// seconds, and `api_key` on every request.
    /// - Parameters:
    ///   - environment: Where the backends are.
    ///   - apiKey: The TMDB API key.
    ///   - transport: How requests travel.
    public static func movies(
        environment: ServerEnvironment,
        apiKey: String,
        transport: any Transport = .urlSession()
    ) -> Client {
        Client(backend: .movies, environment: environment, transport: transport) {
            $0.errorFormat = .tmdb
            $0.commonParameters.query["api_key"] = apiKey
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
            $0.decoder.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
                guard let date = (try? withFraction.parse(text)) ?? (try? Date.ISO8601FormatStyle().parse(text)) else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 date.")
                    )
                }
                return date
            }
        }
    }

    /// The auth backend's client: `{"message"}` errors, snake_case keys, and the API version and
    /// device type sent as header fields on every request.
    /// - Parameters:
    ///   - environment: Where the backends are.
    ///   - apiVersion: Sent as `X-API-Version`.
    ///   - deviceType: Sent as `X-Device-Type`.
    ///   - transport: How requests travel.
    public static func auth(
        environment: ServerEnvironment,
        apiVersion: String = "1",
        deviceType: String = "linux",
        transport: any Transport = .urlSession()
    ) -> Client {
        Client(backend: .auth, environment: environment, transport: transport) {
            $0.errorFormat = .message
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
            $0.decoder.dateDecodingStrategy = .iso8601
            $0.commonParameters.headerFields[.apiVersion] = apiVersion
            $0.commonParameters.headerFields[.deviceType] = deviceType
        }
    }

    /// The analytics backend's client: the app id as a common `X-App-ID` header, dates as
    /// ISO 8601, snake_case keys.
    /// - Parameters:
    ///   - environment: Where the backends are (a separate server from the others).
    ///   - appID: Sent as `X-App-ID`.
    ///   - transport: How requests travel.
    public static func analytics(
        environment: ServerEnvironment,
        appID: String,
        transport: any Transport = .urlSession()
    ) -> Client {
        Client(backend: .analytics, environment: environment, transport: transport) {
            $0.commonParameters.headerFields[.appID] = appID
            $0.encoder.dateEncodingStrategy = .iso8601
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
        }
    }
}

// Constant, valid field names: the failable initialiser cannot fail here.
extension HTTPField.Name {
    /// `X-API-Version`.
    public static let apiVersion = HTTPField.Name("X-API-Version")!
    /// `X-Device-Type`.
    public static let deviceType = HTTPField.Name("X-Device-Type")!
    /// `X-App-ID`.
    public static let appID = HTTPField.Name("X-App-ID")!
    /// `X-Fault`: asks the reference server to misbehave (`delay=5000`, `status=503`, …).
    public static let fault = HTTPField.Name("X-Fault")!
}
