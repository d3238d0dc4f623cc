import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Applies a ``ServerTrust`` to the TLS server-trust challenges of Courier's URLSession delegate.
///
/// On Apple platforms ``ChainTrustEvaluation`` evaluates the chain with the Security framework
/// (`SecTrustChain`). On
/// Linux URLSession never raises a server-trust challenge, so ``TrustRefusal`` refuses to be
/// made: a transport given pins or roots does not start, rather than skip them.
protocol ServerTrustEvaluation: Sendable {
    /// Prepares the evaluation of `trust`.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when a root certificate cannot be read or
    ///   the platform cannot apply `trust`.
    init(_ trust: ServerTrust) throws

    /// Answers a challenge: a server-trust challenge by the policy, any other with the platform's
    /// default handling. `refuse` receives the error the request fails with when the server is
    /// refused, before `completionHandler` is called. Neither is called on the caller's thread, and
    /// the evaluation never runs on Swift's cooperative thread pool.
    func answer(
        _ challenge: URLAuthenticationChallenge,
        refuse: @escaping @Sendable (CourierError) -> Void,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    )
}

extension ServerTrust {
    /// Whether it asks for nothing beyond the platform's usual checks.
    var isEmpty: Bool { additionalRootCertificates.isEmpty && pins.isEmpty }

    /// The evaluation Courier's URLSession delegate applies on this platform, `nil` when there is
    /// nothing beyond the usual checks.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when a root cannot be read, or on Linux.
    func sessionEvaluation() throws -> (any ServerTrustEvaluation)? {
        isEmpty ? nil : try PlatformTrustEvaluation(self)
    }
}

#if canImport(Security)
typealias PlatformTrustEvaluation = ChainTrustEvaluation<SecTrustChain>
#else
typealias PlatformTrustEvaluation = TrustRefusal
#endif
