import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``ServerTrust`` applied to the chains a platform reads (``PresentedChain``): the additional
/// roots are trusted besides the system's, and a pinned host must present a certificate whose
/// public key matches one of its pins.
///
/// The evaluation may block while the platform fetches revocation information, so it runs on a
/// dispatch queue of its own: never on Swift's cooperative pool, nor on the session's delegate
/// queue, which every task of the session shares.
struct ChainTrustEvaluation<Chain: PresentedChain>: ServerTrustEvaluation {
    private let trust: ServerTrust
    /// The additional roots, as DER.
    private let roots: [Data]

    init(_ trust: ServerTrust) throws {
        let roots = try trust.rootCertificatesDER()
        guard roots.allSatisfy(Chain.reads(certificate:)) else {
            throw CourierError(.invalidRequest, message: "A root certificate is not a valid X.509 certificate.")
        }
        self.trust = trust
        self.roots = roots
    }

    func answer(
        _ challenge: URLAuthenticationChallenge,
        refuse: @escaping @Sendable (CourierError) -> Void,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard let chain = Chain(challenge) else { return completionHandler(.performDefaultHandling, nil) }
        let host = challenge.protectionSpace.host
        evaluationQueue.async { [self] in
            if let refusal = refusal(of: chain, host: host) {
                refuse(refusal)
                completionHandler(.cancelAuthenticationChallenge, nil)
            } else {
                completionHandler(.useCredential, chain.credential)
            }
        }
    }

    /// Why `chain` is refused for `host`, or `nil` when it passes the usual checks, the roots and
    /// the pins.
    func refusal(of chain: Chain, host: String) -> CourierError? {
        if let failure = chain.failure(trustingAlso: roots) {
            return CourierError(.untrustedServer, message: "The certificate of \(host) is not trusted.", underlyingError: failure)
        }
        guard let pins = trust.pins(forHost: host) else { return nil }
        guard let key = chain.leafSubjectPublicKeyInfo, trust.permits(host: host, publicKeySHA256: SHA256.hash(key)) else {
            return CourierError(.untrustedServer, message: "The public key of \(host) matches none of its \(pins.count) pins.")
        }
        return nil
    }
}

/// Where chains are evaluated: concurrently, away from the delegate queue and the cooperative pool.
private let evaluationQueue = DispatchQueue(label: "Courier.ChainTrustEvaluation", attributes: .concurrent)
