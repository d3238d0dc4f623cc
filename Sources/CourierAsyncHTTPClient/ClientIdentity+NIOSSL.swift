// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import NIOSSL

extension ClientIdentity {
    /// The certificate chain (leaf first) and private key, read with NIOSSL.
    /// - Returns: The chain and the key.
    /// - Throws: ``Courier/CourierError/Kind/invalidRequest`` saying what cannot be read: PEM that
    ///   holds no certificate or no key, an encrypted PEM key, a PKCS#12 bundle's wrong passphrase,
    ///   a protection it cannot decrypt, bytes that are not PKCS#12, or a Keychain identity. The message never holds the
    ///   key, the bundle or the passphrase.
    func nioSSLCredentials() throws(CourierError) -> (chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) {
        switch source {
        case .pem(let chainPEM, let keyPEM):
            let chain = (try? NIOSSLCertificate.fromPEMBytes(Array(chainPEM.utf8))) ?? []
            guard !chain.isEmpty else { throw CourierError(.invalidRequest, message: "The client certificate chain holds no PEM certificate.") }
            guard !Self.isEncrypted(pem: keyPEM) else { throw CourierError(.invalidRequest, message: Self.encryptedKeyMessage) }
            do {
                return (chain, try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem))
            } catch {
                // NIOSSL's errors describe the parse, never the key's bytes; keep them out all the same.
                throw CourierError(.invalidRequest, message: "The client certificate's private key is not a PEM private key (PKCS#8, SEC1 or PKCS#1).")
            }
        case .pkcs12(let bundle, let passphrase):
            do {
                let contents = try NIOSSLPKCS12Bundle(buffer: Array(bundle), passphrase: Array(passphrase.utf8))
                return (contents.certificateChain, contents.privateKey)
            } catch {
                throw CourierError(.invalidRequest, message: Self.pkcs12RefusalMessage(bundle: bundle, reason: String(describing: error)))
            }
        case .keychain:
            throw CourierError(
                .invalidRequest,
                message: "The AsyncHTTPClient transport cannot read a Keychain identity (\(self)): give it PEM or PKCS#12, "
                    + "or use the URLSession transport on Apple platforms: SessionTransport(clientIdentity:proxy:)."
            )
        }
    }

    /// An encrypted PKCS#8 key, or a traditional OpenSSL key with a `Proc-Type` header.
    static func isEncrypted(pem: String) -> Bool {
        pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || pem.contains("Proc-Type: 4,ENCRYPTED")
    }

    static let encryptedKeyMessage =
        "The client certificate's private key is encrypted PEM, which Courier does not read. "
        + "Decrypt it (openssl pkey -in key.pem -out plain-key.pem), or bundle certificate and key as PKCS#12 "
        + "and use ClientIdentity.pkcs12 with its passphrase."

    /// What to tell the user about a bundle NIOSSL could not open, from BoringSSL's reason
    /// (`PKCS8 routines:OPENSSL_internal:INCORRECT_PASSWORD`): the reason names are BoringSSL's
    /// stable API, its error codes are not exported through NIOSSL.
    static func pkcs12RefusalMessage(bundle: Data, reason: String) -> String {
        if reason.contains("INCORRECT_PASSWORD") {
            return "The passphrase does not open the PKCS#12 client certificate bundle: the bundle's integrity check fails with it."
        }
        let unsupported = [
            "UNSUPPORTED_CIPHER", "UNSUPPORTED_PRF", "UNSUPPORTED_KEY_DERIVATION_FUNCTION", "UNSUPPORTED_KEYLENGTH",
            "UNKNOWN_HASH", "MISSING_MAC", "PKCS12_PUBLIC_KEY_INTEGRITY_NOT_SUPPORTED", "UNKNOWN_ALGORITHM",
        ]
        if unsupported.contains(where: reason.contains) {
            return "The PKCS#12 client certificate bundle is protected in a way Courier cannot read. "
                + "Courier reads bundles with a password MAC (SHA-1 or SHA-256), their contents encrypted with AES-CBC or 3DES (PBES2 with PBKDF2), "
                + "or with PKCS#12's 3DES, RC2 or RC4: openssl pkcs12 -export writes such a bundle by default."
        }
        if bundle.starts(with: Data("-----BEGIN".utf8)) {
            return "The client certificate bundle is PEM text, not PKCS#12: use ClientIdentity.pem(certificateChain:privateKey:)."
        }
        return "The client certificate bundle is not a PKCS#12 bundle (the DER bytes of a .p12 or .pfx file)."
    }
}
#endif
