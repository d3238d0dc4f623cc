#if canImport(Security)
import Foundation
import Security

/// Keeps tokens in the Keychain as one generic-password item, readable after the first unlock.
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

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    public func load() throws -> AuthTokens? {
        var search = query
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(status))
        }
        return try JSONDecoder().decode(AuthTokens.self, from: data)
    }

    public func save(_ tokens: AuthTokens?) throws {
        let deleteStatus = SecItemDelete(query as CFDictionary)
        guard deleteStatus == errSecSuccess || deleteStatus == errSecItemNotFound else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(deleteStatus))
        }
        guard let tokens else { return }
        var item = query
        item[kSecValueData as String] = try JSONEncoder().encode(tokens)
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
    }
}
#endif
