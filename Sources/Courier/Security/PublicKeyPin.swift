import Foundation

/// A pinned public key: the SHA-256 digest of a certificate's DER-encoded SubjectPublicKeyInfo,
/// the value HPKP and `openssl` print as base64.
///
/// ```sh
/// openssl x509 -in server.pem -pubkey -noout | openssl pkey -pubin -outform der \
///   | openssl dgst -sha256 -binary | base64
/// ```
///
/// ```swift
/// let pin = try PublicKeyPin(sha256Base64: "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
/// ```
public struct PublicKeyPin: Hashable, Sendable, CustomStringConvertible {
    /// The 32-byte digest.
    public let sha256: [UInt8]

    /// A pin from a raw digest.
    /// - Parameter sha256: The SHA-256 of the SubjectPublicKeyInfo.
    /// - Throws: ``CourierError/Kind/invalidRequest`` unless it is 32 bytes long.
    public init(sha256: [UInt8]) throws {
        guard sha256.count == 32 else {
            throw CourierError(.invalidRequest, message: "A SHA-256 public-key pin is 32 bytes, not \(sha256.count).")
        }
        self.sha256 = sha256
    }

    /// A pin from its base64 form (`sha256/` prefix allowed).
    /// - Parameter base64: The base64 of the SHA-256 of the SubjectPublicKeyInfo.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when it is not base64 of 32 bytes.
    public init(sha256Base64 base64: String) throws {
        let text = base64.hasPrefix("sha256/") ? String(base64.dropFirst("sha256/".count)) : base64
        guard let digest = Data(base64Encoded: text) else {
            throw CourierError(.invalidRequest, message: "Public-key pin \"\(base64)\" is not base64.")
        }
        try self.init(sha256: Array(digest))
    }

    /// `sha256/` followed by the digest in base64.
    public var description: String { "sha256/" + Data(sha256).base64EncodedString() }
}
