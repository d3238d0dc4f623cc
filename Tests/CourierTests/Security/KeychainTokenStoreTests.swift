#if canImport(Security)
import Courier
import Foundation
import Testing

/// The Keychain itself, on Apple platforms: a signed app keeps its tokens in the data-protection
/// keychain; an unsigned test runner, which has no keychain-access-groups entitlement, gets an
/// error that names it (TN3137).
@Suite("KeychainTokenStore keeps tokens in the data-protection keychain, or says which entitlement is missing")
struct KeychainTokenStoreTests {
    @Test("tokens saved come back, and are gone once cleared; without the entitlement every call says so")
    func roundTrip() throws {
        let store = KeychainTokenStore(service: "com.example.courier-tests.\(UUID().uuidString)")
        let tokens = AuthTokens(accessToken: "access", refreshToken: "refresh")
        do {
            try store.save(tokens)
        } catch let error as CourierError {
            #expect(error.kind == .fileAccessFailed)
            #expect(error.message?.contains("keychain-access-groups entitlement") == true, "only a missing entitlement may refuse: \(error)")
            let read = #expect(throws: CourierError.self) { try store.load() }
            #expect(read?.message?.contains("keychain-access-groups entitlement") == true)
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
