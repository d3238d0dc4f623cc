import Foundation

/// The credentials of a signed-in user: an access token sent with requests, and what renews it.
public struct AuthTokens: Codable, Sendable, Equatable {
    /// Sent with every authenticated request.
    public var accessToken: String
    /// What the session's refresh closure may exchange for new tokens; `nil` when the backend has
    /// none (the closure is called all the same, and renews some other way or throws).
    public var refreshToken: String?
    /// When the access token stops working, if the backend said; it is then renewed before use.
    public var expiresAt: Date?

    /// Creates tokens.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - refreshToken: The refresh token, if any.
    ///   - expiresAt: When the access token expires, if known.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

extension AuthTokens: CustomStringConvertible, CustomReflectable {
    /// Never shows the tokens, so printing or logging them leaks nothing.
    public var description: String {
        "AuthTokens(accessToken: <redacted>, refreshToken: \(refreshToken == nil ? "nil" : "<redacted>"), expiresAt: \(expiresAt.map { "\($0)" } ?? "nil"))"
    }

    /// The tokens as `<redacted>` and the expiry date, so `dump(_:)` and reflection-based
    /// loggers show no token either.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["accessToken": "<redacted>", "refreshToken": refreshToken.map { _ in "<redacted>" } as Any, "expiresAt": expiresAt as Any],
            displayStyle: .struct
        )
    }
}
