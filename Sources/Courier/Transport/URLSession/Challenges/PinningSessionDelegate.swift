import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``ServerTrust`` that a session's delegate hands to the URLSession transport.
protocol ServerTrustCarrying {
    /// The evaluation the transport applies; `nil` for the platform's usual checks.
    var trustEvaluation: (any ServerTrustEvaluation)? { get }
}

/// Applies a ``ServerTrust`` to a `URLSession`: its additional roots are trusted besides the
/// system's, and a pinned host must present a certificate whose public key matches one of its pins.
///
/// Give the trust to the transport instead, which applies it in Courier's own delegate:
///
/// ```swift
/// let transport = try SessionTransport(session: session, trust: ServerTrust(pins: ["api.example.com": pins]))
/// ```
///
/// A ``SessionTransport`` given a session with this delegate applies the delegate's ``trust`` the
/// same way. Like ``SessionTransport/init(session:trust:)``, it refuses roots and pins on Linux,
/// where URLSession cannot check a server's certificate.
// @unchecked: every stored property is immutable after `init`.
@available(*, deprecated, message: "Give the trust to the transport: SessionTransport(session:trust:).")
open class PinningSessionDelegate: NSObject, URLSessionDelegate, ServerTrustCarrying, @unchecked Sendable {
    /// The roots and pins applied.
    public let trust: ServerTrust
    let trustEvaluation: (any ServerTrustEvaluation)?

    /// Creates the delegate.
    /// - Parameter trust: Additional roots and per-host pins.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when a root certificate cannot be read, and
    ///   on Linux when `trust` has roots or pins.
    public init(trust: ServerTrust) throws {
        self.trust = trust
        self.trustEvaluation = try trust.sessionEvaluation()
        super.init()
    }

    /// Evaluates a server-trust challenge against the system roots plus ``trust``'s, then its pins.
    /// - Parameters:
    ///   - session: The session.
    ///   - challenge: The challenge.
    /// - Returns: The credential for a trusted server; a cancelled challenge for a refused one; the
    ///   default handling for any other challenge.
    open func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard let trustEvaluation else { return (.performDefaultHandling, nil) }
        let answer = await withCheckedContinuation { continuation in
            trustEvaluation.answer(challenge, refuse: { _ in }) { disposition, credential in
                continuation.resume(returning: Answer(disposition: disposition, credential: credential))
            }
        }
        return (answer.disposition, answer.credential)
    }

    /// A challenge's answer, handed from the evaluation's queue to the waiting task.
    // @unchecked: `URLCredential` is immutable, but not marked `Sendable` on every platform.
    private struct Answer: @unchecked Sendable {
        let disposition: URLSession.AuthChallengeDisposition
        let credential: URLCredential?
    }
}
