import Foundation
import TestSupport
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("What Courier's URLSession delegate answers each authentication challenge with")
struct ChallengeAnswerTests {
    private static let proxyCredentials = ProxyCredentials(username: "ada", password: "proxy-pass")

    /// A client certificate that hands out one credential, so the test can see it was the one used.
    private struct FixedCertificate: SessionClientCertificate {
        // @unchecked: the credential is immutable.
        struct Box: @unchecked Sendable { let credential: URLCredential }
        let box = Box(credential: URLCredential(user: "certificate", password: "", persistence: .forSession))
        func credential() -> URLCredential { box.credential }
    }

    private static func decide(
        _ challenge: URLAuthenticationChallenge,
        response: URLResponse? = nil,
        credentials: ChallengeCredentials = ChallengeCredentials()
    ) -> ChallengeAnswer {
        ChallengeAnswer.decide(challenge, response: response, credentials: credentials, trust: nil)
    }

    private static func refusal(_ answer: ChallengeAnswer) -> CourierError? {
        guard case .end(.refused(let error)) = answer else { return nil }
        return error
    }

    @Test("a proxy's first 407 is answered with the proxy credentials, for this session only")
    func proxyAnsweredOnce() {
        let answer = Self.decide(AuthenticationChallenges.proxy(), credentials: ChallengeCredentials(proxy: Self.proxyCredentials))
        guard case .use(let credential) = answer else {
            Issue.record("expected a credential, got \(answer)")
            return
        }
        #expect(credential.user == "ada")
        #expect(credential.password == "proxy-pass")
        #expect(credential.persistence == .forSession)
    }

    @Test("a proxy that asks again refuses the credentials: proxyAuthenticationRequired, without the password")
    func proxyAskingAgainRefused() {
        let again = AuthenticationChallenges.proxy(previousFailureCount: 1)
        let error = Self.refusal(Self.decide(again, credentials: ChallengeCredentials(proxy: Self.proxyCredentials)))
        #expect(error?.kind == .proxyAuthenticationRequired)
        #expect(error?.message?.contains("refused") == true)
        #expect(error?.message?.contains("proxy-pass") == false)
    }

    @Test("a proxy's 407 with no credentials configured is proxyAuthenticationRequired, even with a response")
    func proxyWithoutCredentials() {
        let response = HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: 407, httpVersion: nil, headerFields: nil)
        let error = Self.refusal(Self.decide(AuthenticationChallenges.proxy(), response: response))
        #expect(error?.kind == .proxyAuthenticationRequired)
        #expect(error?.message?.contains("asks for credentials") == true)
    }

    @Test("a request for a client certificate is answered with the configured identity's credential")
    func clientCertificateAnswered() {
        let certificate = FixedCertificate()
        let challenge = AuthenticationChallenges.server(method: "NSURLAuthenticationMethodClientCertificate")
        let answer = Self.decide(challenge, credentials: ChallengeCredentials(clientCertificate: certificate))
        guard case .use(let credential) = answer else {
            Issue.record("expected a credential, got \(answer)")
            return
        }
        #expect(credential === certificate.box.credential)
    }

    @Test("a request for a client certificate, with none configured, goes on without one (the default handling)")
    func clientCertificateMissing() {
        let challenge = AuthenticationChallenges.server(method: "NSURLAuthenticationMethodClientCertificate")
        let answer = Self.decide(challenge, credentials: ChallengeCredentials(proxy: Self.proxyCredentials))
        guard case .performDefaultHandling = answer else {
            Issue.record("expected the default handling, got \(answer)")
            return
        }
    }

    @Test("a server's 401 ends the task with its response for the middleware, and never gets the proxy credentials")
    func serverChallengeEnds() {
        let response = HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: 401, httpVersion: nil, headerFields: nil)
        let challenge = AuthenticationChallenges.server(method: NSURLAuthenticationMethodHTTPBasic, failureResponse: response)
        let answer = Self.decide(challenge, credentials: ChallengeCredentials(proxy: Self.proxyCredentials))
        guard case .end(.unauthorized(let ended)) = answer else {
            Issue.record("expected the 401 to end the task, got \(answer)")
            return
        }
        #expect((ended as? HTTPURLResponse)?.statusCode == 401)
    }

    @Test("any other challenge goes to the transport's trust, or gets the default handling without one")
    func serverTrust() {
        let challenge = AuthenticationChallenges.server(method: "NSURLAuthenticationMethodServerTrust")
        guard case .performDefaultHandling = Self.decide(challenge) else {
            Issue.record("expected the default handling without a trust")
            return
        }
        let evaluation = RecordingTrustEvaluation()
        guard case .evaluate(let trust) = ChallengeAnswer.decide(challenge, response: nil, credentials: ChallengeCredentials(), trust: evaluation) else {
            Issue.record("expected the trust to evaluate")
            return
        }
        #expect(trust is RecordingTrustEvaluation)
    }

    private struct RecordingTrustEvaluation: ServerTrustEvaluation {
        init() {}
        init(_ trust: ServerTrust) {}
        func answer(
            _ challenge: URLAuthenticationChallenge,
            refuse: @escaping @Sendable (CourierError) -> Void,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {}
    }
}
