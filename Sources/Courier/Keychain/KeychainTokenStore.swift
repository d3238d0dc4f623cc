#if canImport(Security)
import Foundation

/// Keeps tokens in the Keychain as one generic-password item of the data-protection keychain,
/// readable after the first unlock, on this device only. A save replaces the item in one step.
///
/// ```swift
/// let session = AuthenticationSession(store: KeychainTokenStore(service: "com.example.app")) { ... }
/// ```
public struct KeychainTokenStore: TokenStore {
    /// The item's service attribute, usually the app's bundle identifier.
    public let service: String
    /// The item's account attribute.
    public let account: String

    /// Creates a store for one Keychain item.
    /// - Parameters:
    ///   - service: The item's service, e.g. the bundle identifier.
    ///   - account: The item's account; `"courier.tokens"` by default.
    public init(service: String, account: String = "courier.tokens") {
        self.service = service
        self.account = account
    }

    /// The stored tokens, or `nil` when there are none.
    /// - Returns: The tokens.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the Keychain cannot be read,
    ///   ``CourierError/Kind/decodingFailed`` when the item holds no tokens.
    public func load() throws -> AuthTokens? {
        try SecItemKeychainItem(service: service, account: account).loadTokens()
    }

    /// Replaces the stored tokens (`SecItemUpdate`, or `SecItemAdd` when there are none yet); `nil`
    /// deletes them.
    /// - Parameter tokens: The tokens to keep.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the Keychain refuses the change.
    public func save(_ tokens: AuthTokens?) throws {
        try SecItemKeychainItem(service: service, account: account).saveTokens(tokens)
    }
}
#endif
