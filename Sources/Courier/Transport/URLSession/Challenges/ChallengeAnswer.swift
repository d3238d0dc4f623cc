import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How Courier's URLSession delegate answers one authentication challenge: decided by
/// ``decide(_:response:credentials:trust:)`` from the challenge alone, then carried out by
/// ``ChallengeOutcome/answer(_:response:credentials:trust:completionHandler:end:)``.
// @unchecked: `URLCredential` is immutable, but not marked `Sendable` on every platform.
enum ChallengeAnswer: @unchecked Sendable {
    /// Answer with this credential.
    case use(URLCredential)
    /// End the task this way, then cancel the challenge.
    case end(ChallengeOutcome)
    /// Let the transport's server-trust evaluation answer.
    case evaluate(any ServerTrustEvaluation)
    /// Let URLSession answer as it does by default.
    case performDefaultHandling

    /// Decides the answer to `challenge`.
    ///
    /// - A proxy's challenge (its 407) gets the proxy credentials, once: asked again, or with none
    ///   configured, the task fails with ``CourierError/Kind/proxyAuthenticationRequired``.
    /// - A server's request for a client certificate gets the configured one; without one, the
    ///   default handling, which goes on without a certificate.
    /// - A challenge that comes with an HTTP response (a 401 with `WWW-Authenticate`) ends the task
    ///   with that response, for Courier's middleware to answer.
    /// - Any other (server trust) goes to `trust`, or gets the default handling without one.
    /// - Parameters:
    ///   - challenge: The challenge.
    ///   - response: The task's response so far.
    ///   - credentials: What the delegate may answer with.
    ///   - trust: The transport's server-trust evaluation, if it has one.
    /// - Returns: The answer.
    static func decide(
        _ challenge: URLAuthenticationChallenge,
        response: URLResponse?,
        credentials: ChallengeCredentials,
        trust: (any ServerTrustEvaluation)?
    ) -> ChallengeAnswer {
        let space = challenge.protectionSpace
        if space.isProxy() {
            let proxy = "\(space.host):\(space.port)"
            guard let given = credentials.proxy else {
                return .end(.refused(CourierError(.proxyAuthenticationRequired, message: "The proxy \(proxy) asks for credentials (407).")))
            }
            // The count covers every protection space, but a server's challenge ends the task.
            guard challenge.previousFailureCount == 0 else {
                return .end(.refused(CourierError(.proxyAuthenticationRequired, message: "The proxy \(proxy) refused the credentials given (407).")))
            }
            return .use(URLCredential(user: given.username, password: given.password, persistence: .forSession))
        }
        if space.authenticationMethod == PlatformURLSession.clientCertificateMethod {
            return credentials.clientCertificate.map { .use($0.credential()) } ?? .performDefaultHandling
        }
        if let failure = response ?? challenge.failureResponse {
            return .end(.unauthorized(failure))
        }
        return trust.map { .evaluate($0) } ?? .performDefaultHandling
    }
}
