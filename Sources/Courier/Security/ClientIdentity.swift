import Foundation

/// A client certificate and its private key, for servers that ask the client to prove who it is
/// (mutual TLS).
///
/// ```swift
/// let identity = ClientIdentity.pem(certificateChain: certificatePEM, privateKey: keyPEM)
/// let transport = try HTTPClientTransport(trust: ServerTrust(), clientIdentity: identity)
/// ```
/// Its descriptions and its `Mirror` (what `dump(_:)` and reflection-based loggers print) never
/// show the key, the bundle or the passphrase. A transport that cannot present a client
/// certificate refuses one when it is created.
public struct ClientIdentity: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Where the certificate and key are.
    package enum Source: Sendable {
        /// The certificate chain (leaf first) and the key, PEM.
        case pem(certificateChain: String, privateKey: String)
        /// A PKCS#12 bundle and its passphrase.
        case pkcs12(Data, passphrase: String)
    }

    /// Where the certificate and key are.
    package let source: Source

    /// A certificate chain and key in PEM.
    /// - Parameters:
    ///   - certificateChain: The client's certificate, then any intermediates, PEM.
    ///   - privateKey: The certificate's private key, PEM (PKCS#8, SEC1 or PKCS#1), unencrypted:
    ///     a transport refuses an encrypted key (`BEGIN ENCRYPTED PRIVATE KEY`, or
    ///     `Proc-Type: 4,ENCRYPTED`), saying so; a PKCS#12 bundle carries an encrypted key instead.
    /// - Returns: The identity.
    public static func pem(certificateChain: String, privateKey: String) -> ClientIdentity {
        ClientIdentity(source: .pem(certificateChain: certificateChain, privateKey: privateKey))
    }

    /// A certificate chain and key read from PEM files.
    /// - Parameters:
    ///   - certificateChainFile: The certificate chain's file.
    ///   - privateKeyFile: The key's file.
    /// - Returns: The identity.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when a file cannot be read.
    public static func pem(certificateChainFile: URL, privateKeyFile: URL) throws(CourierError) -> ClientIdentity {
        .pem(certificateChain: try text(of: certificateChainFile), privateKey: try text(of: privateKeyFile))
    }

    /// A PKCS#12 bundle (`.p12`, `.pfx`) with its certificate chain and key.
    /// - Parameters:
    ///   - bundle: The bundle's bytes.
    ///   - passphrase: The bundle's passphrase.
    /// - Returns: The identity.
    public static func pkcs12(_ bundle: Data, passphrase: String) -> ClientIdentity {
        ClientIdentity(source: .pkcs12(bundle, passphrase: passphrase))
    }

    /// A PKCS#12 bundle read from a file.
    /// - Parameters:
    ///   - file: The bundle's file.
    ///   - passphrase: The bundle's passphrase.
    /// - Returns: The identity.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the file cannot be read.
    public static func pkcs12(file: URL, passphrase: String) throws(CourierError) -> ClientIdentity {
        do {
            return .pkcs12(try Data(contentsOf: file), passphrase: passphrase)
        } catch {
            throw CourierError(.fileAccessFailed, message: "The client certificate bundle \(file.path) could not be read.", underlyingError: error)
        }
    }

    /// `client identity (PEM)` or `client identity (PKCS#12)`: never the key.
    public var description: String {
        switch source {
        case .pem: "client identity (PEM)"
        case .pkcs12: "client identity (PKCS#12)"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Only the ``description``, so `dump(_:)` shows neither the key nor the passphrase.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description])
    }

    private static func text(of file: URL) throws(CourierError) -> String {
        do {
            return try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw CourierError(.fileAccessFailed, message: "The client certificate file \(file.path) could not be read.", underlyingError: error)
        }
    }
}
