import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a task ended at an authentication challenge that Courier's delegate answered itself.
// @unchecked: `URLResponse` is immutable, but not marked `Sendable` on every platform.
enum ChallengeOutcome: @unchecked Sendable {
    /// A server's HTTP authentication challenge: the task ends with its 401, which Courier's
    /// middleware handles, and never waits for a credential.
    case unauthorized(URLResponse?)
    /// The task fails with this error: the transport's ``ServerTrust`` refused the server, or a
    /// proxy asked for credentials (``CourierError/Kind/proxyAuthenticationRequired``).
    case refused(CourierError)

    /// Answers `challenge` the same way on every platform, as ``ChallengeAnswer`` decides, calling
    /// `end` first when the task ends at it.
    ///
    /// A challenge that ends the task is cancelled once `end` has the outcome: a 401 goes to
    /// Courier's middleware, never a credential storage. On Linux the challenge comes once the
    /// whole 401 has arrived and, unless answered with a credential, waits forever or cancels the
    /// task (swift-corelibs-foundation#5456).
    /// - Parameters:
    ///   - challenge: The challenge.
    ///   - response: The task's response so far.
    ///   - credentials: What the delegate may answer with: a client certificate, proxy credentials.
    ///   - trust: The transport's server-trust evaluation, if it has one.
    ///   - completionHandler: URLSession's handler for the answer.
    ///   - end: Receives how the task ends, before the challenge is answered.
    static func answer(
        _ challenge: URLAuthenticationChallenge,
        response: URLResponse?,
        credentials: ChallengeCredentials,
        trust: (any ServerTrustEvaluation)?,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void,
        end: @escaping @Sendable (ChallengeOutcome) -> Void
    ) {
        switch ChallengeAnswer.decide(challenge, response: response, credentials: credentials, trust: trust) {
        case .use(let credential):
            completionHandler(.useCredential, credential)
        case .end(let outcome):
            end(outcome)
            // Cancelling waits on URLSession's queue, which may be the one running this callback.
            UncheckedDataTask.elsewhere { completionHandler(.cancelAuthenticationChallenge, nil) }
        case .evaluate(let trust):
            trust.answer(challenge, refuse: { end(.refused($0)) }, completionHandler: completionHandler)
        case .performDefaultHandling:
            completionHandler(.performDefaultHandling, nil)
        }
    }
}
