#if canImport(Security)
import Courier
import Foundation
import Testing

/// The Keychain itself, on Apple platforms: a signed app keeps its tokens in the data-protection
/// keychain; an unsigned test runner, which has no keychain-access-groups entitlement, cannot
/// save, and the error names the entitlement (TN3137).
@Suite("KeychainTokenStore keeps tokens in the data-protection keychain, or says which entitlement is missing")
struct KeychainTokenStoreTests {
    @Test("tokens saved come back, and are gone once cleared; without the entitlement a save says so and nothing is read")
    func roundTrip() throws {
        let store = KeychainTokenStore(service: "com.example.courier-tests.\(UUID().uuidString)")
        let tokens = AuthTokens(accessToken: "access", refreshToken: "refresh")
        do {
            try store.save(tokens)
        } catch let error as CourierError {
            #expect(error.kind == .fileAccessFailed)
            #expect(error.message?.contains("keychain-access-groups entitlement") == true, "only a missing entitlement may refuse: \(error)")
            // Reading still has the read-only group macOS gives any caller: it finds no tokens, or
            // fails the same way.
            switch Result(catching: { try store.load() }) {
            case .success(let stored): #expect(stored == nil)
            case .failure(let read): #expect((read as? CourierError)?.message?.contains("keychain-access-groups entitlement") == true)
            }
            return
        }
        #expect(try store.load() == tokens)
        try store.save(AuthTokens(accessToken: "access 2", refreshToken: "refresh"))
        #expect(try store.load()?.accessToken == "access 2")
        try store.save(nil)
        #expect(try store.load() == nil)
    }
}
#endif
