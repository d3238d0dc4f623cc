#if canImport(Security)
import Foundation
import Security

/// An identity in the Keychain, which URLSession presents when a server asks for a client certificate.
// @unchecked: a `SecIdentity` is immutable; not every SDK marks it `Sendable`.
struct KeychainClientCertificate: SessionClientCertificate, @unchecked Sendable {
    let identity: SecIdentity

    /// Finds the identity, on macOS in the data-protection keychain and then in the file-based
    /// ones (login, System); `nil` when the Keychain has none this app can read.
    init?(_ reference: ClientIdentity.KeychainReference) {
        var query: [String: Any] = [kSecReturnRef as String: true]
        switch reference {
        case .label(let label): query.merge([kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: label]) { $1 }
        case .persistentReference(let data): query[kSecValuePersistentRef as String] = data
        }
        // macOS searches the data-protection keychain and the file-based ones apart (TN3137).
        for dataProtection in [true, false] {
            query[kSecUseDataProtectionKeychain as String] = dataProtection
            var found: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess, let found, CFGetTypeID(found) == SecIdentityGetTypeID() else { continue }
            identity = found as! SecIdentity  // its type was checked
            return
        }
        return nil
    }

    func credential() -> URLCredential {
        URLCredential(identity: identity, certificates: nil, persistence: .forSession)
    }
}
#endif
