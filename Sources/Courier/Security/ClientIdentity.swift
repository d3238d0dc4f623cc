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
        /// An identity (certificate and private key) in the Keychain, on Apple platforms.
        case keychain(KeychainReference)
    }

    /// How a Keychain identity is found.
    package enum KeychainReference: Sendable, Hashable {
        /// By its label (`kSecAttrLabel`).
        case label(String)
        /// By a persistent reference (`kSecValuePersistentRef`).
        case persistentReference(Data)
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

    /// An identity in the Keychain, found by its label when a transport is created: the URLSession
    /// transport presents it on Apple platforms; other transports refuse it.
    ///
    /// ```swift
    /// let transport = try SessionTransport(clientIdentity: .keychain(label: "Example Client"), proxy: nil)
    /// ```
    /// - Parameter label: The identity's label (`kSecAttrLabel`), as Keychain Access shows it.
    /// - Returns: The identity.
    public static func keychain(label: String) -> ClientIdentity {
        ClientIdentity(source: .keychain(.label(label)))
    }

    /// An identity in the Keychain, found by the persistent reference `SecItemCopyMatching` or
    /// `SecItemAdd` returned for it (`kSecReturnPersistentRef`).
    /// - Parameter persistentReference: The reference's bytes.
    /// - Returns: The identity.
    public static func keychain(persistentReference: Data) -> ClientIdentity {
        ClientIdentity(source: .keychain(.persistentReference(persistentReference)))
    }

    /// `client identity (PEM)`, `client identity (PKCS#12)` or `client identity (Keychain: label)`:
    /// never the key.
    public var description: String {
        switch source {
        case .pem: "client identity (PEM)"
        case .pkcs12: "client identity (PKCS#12)"
        case .keychain(.label(let label)): "client identity (Keychain: \(label))"
        case .keychain(.persistentReference): "client identity (Keychain, by persistent reference)"
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
