import Foundation

/// One generic-password item of a keychain, as `KeychainTokenStore` keeps its tokens in it: the
/// Keychain's own calls on Apple platforms (`SecItemKeychainItem`); tests use an item in memory.
protocol GenericPasswordItem: Sendable {
    /// The item's data, `nil` when there is no item.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the keychain cannot be read.
    func read() throws -> Data?
    /// Replaces the data of the item.
    /// - Returns: `false` when there is no item to update.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the keychain refuses it.
    func update(_ data: Data) throws -> Bool
    /// Adds the item.
    /// - Returns: `false` when the item exists already.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the keychain refuses it.
    func add(_ data: Data) throws -> Bool
    /// Deletes the item, if there is one.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the keychain refuses it.
    func delete() throws
}

extension GenericPasswordItem {
    /// The tokens kept in the item, `nil` when there is none.
    /// - Throws: ``CourierError/Kind/fileAccessFailed``, or ``CourierError/Kind/decodingFailed``
    ///   for an item that holds no tokens.
    func loadTokens() throws -> AuthTokens? {
        guard let data = try read() else { return nil }
        do {
            return try JSONDecoder().decode(AuthTokens.self, from: data)
        } catch {
            throw CourierError(.decodingFailed, message: "The stored tokens could not be read.", underlyingError: error)
        }
    }

    /// Replaces the tokens in one step: the item is updated in place, or added when there is none,
    /// so it is never missing in between (a crash there would sign the user out); `nil` deletes it.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the keychain refuses it.
    func saveTokens(_ tokens: AuthTokens?) throws {
        guard let tokens else { return try delete() }
        let data: Data
        do {
            data = try JSONEncoder().encode(tokens)
        } catch {
            throw CourierError(.encodingFailed, message: "The tokens could not be encoded.", underlyingError: error)
        }
        // Another writer may add the item between the update and the add: then it is updated.
        if try update(data) || add(data) || update(data) { return }
        throw CourierError(.fileAccessFailed, message: "The keychain item could be neither updated nor added.")
    }
}

/// The error of a keychain call that failed with `status`: TN3137's missing entitlement
/// (`errSecMissingEntitlement`, -34018) is named, since the data-protection keychain serves only
/// code signed with a keychain-access-groups entitlement that a provisioning profile grants.
/// - Parameters:
///   - action: What was tried: "read", "update", "add", "delete".
///   - status: The `OSStatus`.
/// - Returns: ``CourierError/Kind/fileAccessFailed`` with the status.
func keychainFailure(_ action: String, status: Int32) -> CourierError {
    let why = status == -34018 ? ": the app lacks the keychain-access-groups entitlement a provisioning profile grants; unsigned tools have none" : ""
    let underlying = NSError(domain: "NSOSStatusErrorDomain", code: Int(status))
    return CourierError(.fileAccessFailed, message: "Could not \(action) the tokens in the Keychain (OSStatus \(status))\(why).", underlyingError: underlying)
}
