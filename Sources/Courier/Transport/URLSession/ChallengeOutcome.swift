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

    /// Answers `challenge` the same way on every platform, calling `end` first when the task ends
    /// at it.
    ///
    /// - A proxy's challenge (its 407) is cancelled once `end` has the failure: the proxy wants
    ///   credentials, which the request's middleware cannot give.
    /// - A challenge that comes with an HTTP response (a 401 with `WWW-Authenticate`) is
    ///   cancelled once `end` has the response: Courier's middleware answers it, never a credential
    ///   storage. On Linux the challenge comes once the whole 401 has arrived and, unless answered
    ///   with a credential, waits forever or cancels the task (swift-corelibs-foundation#5456).
    /// - A server-trust challenge goes to `trust`, which may refuse the server.
    /// - Any other gets the platform's default handling.
    /// - Parameters:
    ///   - challenge: The challenge.
    ///   - response: The task's response so far.
    ///   - trust: The transport's server-trust evaluation, if it has one.
    ///   - completionHandler: URLSession's handler for the answer.
    ///   - end: Receives how the task ends, before the challenge is answered.
    static func answer(
        _ challenge: URLAuthenticationChallenge,
        response: URLResponse?,
        trust: (any ServerTrustEvaluation)?,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void,
        end: @escaping @Sendable (ChallengeOutcome) -> Void
    ) {
        if challenge.protectionSpace.isProxy() {
            let proxy = "\(challenge.protectionSpace.host):\(challenge.protectionSpace.port)"
            end(.refused(CourierError(.proxyAuthenticationRequired, message: "The proxy \(proxy) asks for credentials (407).")))
            UncheckedDataTask.elsewhere { completionHandler(.cancelAuthenticationChallenge, nil) }
        } else if let failure = response ?? challenge.failureResponse {
            end(.unauthorized(failure))
            // Cancelling waits on URLSession's queue, which may be the one running this callback.
            UncheckedDataTask.elsewhere { completionHandler(.cancelAuthenticationChallenge, nil) }
        } else if let trust {
            trust.answer(challenge, refuse: { end(.refused($0)) }, completionHandler: completionHandler)
        } else {
            completionHandler(.performDefaultHandling, nil)
        }
    }
}
