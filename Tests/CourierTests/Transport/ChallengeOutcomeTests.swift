import Foundation
import TestSupport
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSession challenge outcomes")
struct ChallengeOutcomeTests {
    @Test("a proxy's challenge, with no credentials to give, ends the task as proxyAuthenticationRequired, not unauthorized")
    func proxyChallenge() {
        let ended = LockedState<ChallengeOutcome?>(nil)
        ChallengeOutcome.answer(
            AuthenticationChallenges.proxy(),
            response: nil,
            credentials: ChallengeCredentials(),
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

    @Test("a credential the decision picks reaches URLSession's handler at once, and the task goes on")
    func credentialAnswered() {
        let answered = LockedState<(URLSession.AuthChallengeDisposition, String?)?>(nil)
        let ended = LockedState(false)
        ChallengeOutcome.answer(
            AuthenticationChallenges.proxy(),
            response: nil,
            credentials: ChallengeCredentials(proxy: ProxyCredentials(username: "ada", password: "proxy-pass")),
            trust: nil,
            completionHandler: { disposition, credential in answered.withLock { $0 = (disposition, credential?.user) } },
            end: { _ in ended.withLock { $0 = true } }
        )
        #expect(answered.withLock { $0?.0 } == .useCredential)
        #expect(answered.withLock { $0?.1 } == "ada")
        #expect(ended.withLock { $0 } == false)
    }
}
