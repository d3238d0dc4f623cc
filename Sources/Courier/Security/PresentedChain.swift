import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The certificate chain a TLS server presented in a server-trust challenge, as the platform's
/// security library reads it: what ``ChainTrustEvaluation`` needs from it.
protocol PresentedChain: Sendable {
    /// The chain in `challenge`, or `nil` when `challenge` is not a server-trust challenge.
    init?(_ challenge: URLAuthenticationChallenge)

    /// Checks the chain and the host name with the platform's roots and `roots` (DER) trusted.
    /// - Returns: `nil` when the chain is trusted, otherwise why not.
    func failure(trustingAlso roots: [Data]) -> (any Error)?

    /// The DER SubjectPublicKeyInfo of the leaf certificate, `nil` when it cannot be read.
    var leafSubjectPublicKeyInfo: [UInt8]? { get }

    /// The credential that accepts this chain.
    var credential: URLCredential { get }

    /// Whether `der` is a certificate the platform reads.
    static func reads(certificate der: Data) -> Bool
}
