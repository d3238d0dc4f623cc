import Foundation
import TestSupport
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSession challenge outcomes")
struct ChallengeOutcomeTests {
    @Test("a proxy's challenge ends the task as proxyAuthenticationRequired, not unauthorized")
    func proxyChallenge() {
        let ended = LockedState<ChallengeOutcome?>(nil)
        ChallengeOutcome.answer(
            AuthenticationChallenges.proxy(),
            response: nil,
            trust: nil,
            completionHandler: { _, _ in },
            end: { outcome in ended.withLock { $0 = outcome } }
        )
        guard case .refused(let error) = ended.withLock({ $0 }) else {
            Issue.record("expected a refusal, got \(String(describing: ended.withLock { $0 }))")
            return
        }
        #expect(error.kind == .proxyAuthenticationRequired)
        #expect(error.message?.contains("proxy.test:3128") == true)
    }
}
