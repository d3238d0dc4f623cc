#if canImport(Security)
import Foundation
import Security

/// An identity in the Keychain, which URLSession presents when a server asks for a client certificate.
// @unchecked: a `SecIdentity` is immutable; not every SDK marks it `Sendable`.
struct KeychainClientCertificate: SessionClientCertificate, @unchecked Sendable {
    let identity: SecIdentity

    /// Finds the identity; `nil` when the Keychain has none this app can read.
    init?(_ reference: ClientIdentity.KeychainReference) {
        var query: [String: Any] = [kSecReturnRef as String: true]
        switch reference {
        case .label(let label): query.merge([kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: label]) { $1 }
        case .persistentReference(let data): query[kSecValuePersistentRef as String] = data
        }
        var found: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess, let found, CFGetTypeID(found) == SecIdentityGetTypeID() else { return nil }
        identity = found as! SecIdentity  // its type was checked
    }

    func credential() -> URLCredential {
        URLCredential(identity: identity, certificates: nil, persistence: .forSession)
    }
}
#endif
