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
