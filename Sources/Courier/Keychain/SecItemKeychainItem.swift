#if canImport(Security)
import Foundation
import Security

/// A generic-password item in the data-protection keychain (on macOS too, where the legacy
/// keychain would ignore the accessibility), readable after the first unlock, on this device only.
struct SecItemKeychainItem: GenericPasswordItem {
    let service: String
    let account: String

    private var query: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
    }

    private static var accessible: [String: Any] { [kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly] }

    func read() throws -> Data? {
        var result: CFTypeRef?
        let search = query.merging([kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitOne]) { $1 }
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw keychainFailure("read", status: status) }
        return data
    }

    func update(_ data: Data) throws -> Bool {
        let status = SecItemUpdate(query as CFDictionary, Self.accessible.merging([kSecValueData as String: data]) { $1 } as CFDictionary)
        guard status != errSecItemNotFound else { return false }
        guard status == errSecSuccess else { throw keychainFailure("update", status: status) }
        return true
    }

    func add(_ data: Data) throws -> Bool {
        let status = SecItemAdd(query.merging(Self.accessible) { $1 }.merging([kSecValueData as String: data]) { $1 } as CFDictionary, nil)
        guard status != errSecDuplicateItem else { return false }
        guard status == errSecSuccess else { throw keychainFailure("add", status: status) }
        return true
    }

    func delete() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw keychainFailure("delete", status: status) }
    }
}
#endif
