import Foundation

/// Which TLS servers a transport talks to, beyond the platform's usual certificate checks:
/// root certificates to trust in addition to the system's, and public keys pinned per host.
///
/// A host with pins is accepted only when the public key of the certificate it presents (after
/// the usual chain and host-name validation) matches one of them; hosts without pins are checked
/// as usual. Pin at least two keys per host (the current one and a backup) so a key rotation does
/// not lock the app out.
///
/// ```swift
/// let trust = ServerTrust(
///     additionalRootCertificates: [companyRootPEM],
///     pins: ["api.example.com": [try PublicKeyPin(sha256Base64: current), try PublicKeyPin(sha256Base64: backup)]]
/// )
/// let transport = try HTTPClientTransport(trust: trust)   // CourierAsyncHTTPClient
/// ```
///
/// A mismatch fails the request with ``CourierError/Kind/untrustedServer`` before any byte of it
/// is sent.
public struct ServerTrust: Sendable {
    /// Root certificates (PEM) trusted in addition to the system's, e.g. a company or test CA.
    public var additionalRootCertificates: [String]
    /// Accepted public keys by host name (compared case-insensitively, without port).
    public var pins: [String: Set<PublicKeyPin>]

    /// Creates a policy.
    /// - Parameters:
    ///   - additionalRootCertificates: PEM root certificates to trust besides the system's.
    ///   - pins: Accepted public keys per host.
    public init(additionalRootCertificates: [String] = [], pins: [String: Set<PublicKeyPin>] = [:]) {
        self.additionalRootCertificates = additionalRootCertificates
        self.pins = Dictionary(pins.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $0.union($1) })
    }

    /// The pins for `host`, or `nil` when it has none (then only the usual checks apply).
    /// - Parameter host: A host name or IP address.
    public func pins(forHost host: String) -> Set<PublicKeyPin>? {
        guard !pins.isEmpty else { return nil }
        return pins[host.lowercased()]
    }

    /// Whether a server for `host` whose certificate's SubjectPublicKeyInfo hashes to
    /// `publicKeySHA256` passes the pins.
    /// - Parameters:
    ///   - host: The host the request went to.
    ///   - publicKeySHA256: The SHA-256 of the presented certificate's SubjectPublicKeyInfo.
    /// - Returns: `true` when the host has no pins or one of them matches.
    public func permits(host: String, publicKeySHA256: [UInt8]) -> Bool {
        guard let pins = pins(forHost: host) else { return true }
        return pins.contains { $0.sha256 == publicKeySHA256 }
    }

    /// The additional roots as DER, decoded from their PEM text: how both transports read them.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when one holds no base64 certificate.
    package func rootCertificatesDER() throws -> [Data] {
        try additionalRootCertificates.flatMap { pem -> [Data] in
            let blocks = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst()
            let certificates = blocks.compactMap { block -> Data? in
                guard let body = block.components(separatedBy: "-----END CERTIFICATE-----").first else { return nil }
                return Data(base64Encoded: body.filter { !$0.isWhitespace })
            }
            guard !certificates.isEmpty, certificates.count == blocks.count else {
                throw CourierError(.invalidRequest, message: "A root certificate is not valid PEM.")
            }
            return certificates
        }
    }
}
