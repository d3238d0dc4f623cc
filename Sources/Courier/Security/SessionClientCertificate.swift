import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client certificate as URLSession presents it, for a server that asks for one (mutual TLS):
/// on Apple platforms an identity from the Keychain. swift-corelibs-foundation never asks.
protocol SessionClientCertificate: Sendable {
    /// The credential that answers a client-certificate challenge.
    func credential() -> URLCredential
}

extension ClientIdentity {
    /// The identity as URLSession presents it: on Apple platforms a Keychain identity, looked up
    /// now; `nil` for one that is not there, for PEM and PKCS#12, and on Linux.
    func sessionCertificate() -> (any SessionClientCertificate)? {
        #if canImport(Security)
        if case .keychain(let reference) = source { return KeychainClientCertificate(reference) }
        #endif
        return nil
    }
}
