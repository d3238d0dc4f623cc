import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority and a server certificate for `127.0.0.1` and `localhost`, generated in
/// memory (P-256 keys, valid from an hour ago for a day): what the reference server needs to serve
/// HTTPS on loopback, and what a test needs to trust or pin it.
///
/// ```swift
/// let certificates = try LoopbackCertificates()
/// var options = ReferenceServer.Options()
/// options.tls = certificates
/// let server = try await ReferenceServer.start(options)   // server.baseURL is https://127.0.0.1:PORT
/// ```
public struct LoopbackCertificates: Sendable {
    /// The root CA certificate, PEM: what a client adds to its trust roots.
    public let rootCertificatePEM: String
    /// The server's certificate (signed by the root), PEM.
    public let serverCertificatePEM: String
    /// The server certificate's private key, PEM (PKCS#8).
    public let serverPrivateKeyPEM: String
    /// The server certificate's SubjectPublicKeyInfo, DER: what a public-key pin hashes.
    public let serverSubjectPublicKeyInfo: [UInt8]
    /// The root's key, which signs client certificates too.
    private let rootKey: P256.Signing.PrivateKey
    /// The root's name, the issuer of what it signs.
    private let rootName: DistinguishedName

    /// SHA-256 of ``serverSubjectPublicKeyInfo``, base64: the server's pin.
    public var serverPublicKeySHA256: String {
        Data(SHA256.hash(data: serverSubjectPublicKeyInfo)).base64EncodedString()
    }

    /// Generates a new root and server certificate.
    /// - Parameter commonName: The root's common name.
    /// - Throws: When signing or serialising fails.
    public init(commonName: String = "Courier Loopback Test Root") throws {
        let now = Date()
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName(commonName) }
        let root = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(rootKey.publicKey),
            notValidBefore: now - 3600,
            notValidAfter: now + 86_400,
            issuer: rootName,
            subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )

        let serverKey = P256.Signing.PrivateKey()
        let serverPublicKey = Certificate.PublicKey(serverKey.publicKey)
        let server = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: serverPublicKey,
            notValidBefore: now - 3600,
            notValidAfter: now + 86_400,
            issuer: rootName,
            subject: try DistinguishedName { CommonName("127.0.0.1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([
                    .dnsName("localhost"),
                    .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )

        self.rootKey = rootKey
        self.rootName = rootName
        rootCertificatePEM = try root.serializeAsPEM().pemString
        serverCertificatePEM = try server.serializeAsPEM().pemString
        serverPrivateKeyPEM = serverKey.pemRepresentation
        serverSubjectPublicKeyInfo = Array(serverKey.publicKey.derRepresentation)
    }

    /// A client certificate signed by this root, for a listener that requires one
    /// (``ReferenceServer/Options/requiresClientCertificate``).
    /// - Parameters:
    ///   - commonName: The certificate's subject.
    ///   - expired: Whether it expired an hour ago.
    /// - Returns: The certificate and its private key, PEM.
    /// - Throws: When signing or serialising fails.
    public func clientCertificate(commonName: String = "courier-client", expired: Bool = false) throws -> (certificatePEM: String, privateKeyPEM: String) {
        let now = Date()
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now - (expired ? 7200 : 3600),
            notValidAfter: now + (expired ? -3600 : 86_400),
            issuer: rootName,
            subject: try DistinguishedName { CommonName(commonName) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.clientAuth])
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey)
        )
        return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
    }
}
