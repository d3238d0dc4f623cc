import Foundation

/// What a successful login returns.
public struct AuthSession: Codable, Sendable, Hashable {
    /// The access token, sent as `Authorization: JWT <token>`.
    public var token: String
    /// Exchanges for a new access token when this one expires.
    public var refreshToken: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    /// The signed-in user's id.
    public var userId: Int
}

/// What the token check returns for a valid token.
public struct TokenStatus: Codable, Sendable, Hashable {
    /// Always `true`: an invalid token is a 401.
    public var valid: Bool
    /// The token's user.
    public var userId: Int
    /// When the token expires.
    public var expiresAt: Date
    /// The API version the request carried, as the server saw it.
    public var apiVersion: String?
    /// The device type the request carried, as the server saw it.
    public var deviceType: String?
}

/// The server's receipt for an uploaded avatar.
public struct AvatarReceipt: Codable, Sendable, Hashable {
    /// The user whose avatar it is.
    public var userId: Int
    /// The file name the server received.
    public var filename: String?
    /// The content type the server received.
    public var contentType: String?
    /// The size the server received, in bytes.
    public var size: Int
    /// The caption field, if sent.
    public var caption: String?
}
