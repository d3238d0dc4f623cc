#if canImport(Security) && canImport(CryptoKit)
import CryptoKit
import Foundation
import Security

/// Applies a ``ServerTrust`` to a `URLSession` on Apple platforms: its additional roots are
/// trusted besides the system's, and a pinned host must present a certificate whose public key
/// matches one of its pins.
///
/// ```swift
/// let delegate = try PinningSessionDelegate(trust: ServerTrust(pins: ["api.example.com": pins]))
/// let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
/// let client = Client(baseURL: "https://api.example.com", transport: .urlSession(session))
/// ```
///
/// A refused server's challenge is cancelled: URLSession sends nothing and the request fails.
/// This delegate does not refuse redirects the way `URLSession.courierShared`'s does;
/// Courier follows redirects itself either way, but to keep URLSession from following them too,
/// subclass and implement `urlSession(_:task:willPerformHTTPRedirection:newRequest:)`.
// @unchecked: every stored property is immutable after `init`.
open class PinningSessionDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {
    /// The roots and pins applied.
    public let trust: ServerTrust
    private let anchors: [SecCertificate]

    /// Creates the delegate.
    /// - Parameter trust: Additional roots and per-host pins.
    /// - Throws: ``CourierError/Kind/invalidRequest`` when a root certificate cannot be read.
    public init(trust: ServerTrust) throws {
        self.trust = trust
        anchors = try trust.rootCertificatesDER().map { der in
            guard let certificate = SecCertificateCreateWithData(nil, der as CFData) else {
                throw CourierError(.invalidRequest, message: "A root certificate is not a valid X.509 certificate.")
            }
            return certificate
        }
        super.init()
    }

    /// Evaluates a server-trust challenge against the system roots plus ``trust``'s, then its pins.
    open func urlSession(
        _ session: URLSession,
        didReceive challenge: URLAuthenticationChallenge
    ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let serverTrust = challenge.protectionSpace.serverTrust
        else { return (.performDefaultHandling, nil) }
        let pins = trust.pins(forHost: challenge.protectionSpace.host)
        guard !anchors.isEmpty || pins != nil else { return (.performDefaultHandling, nil) }

        if !anchors.isEmpty {
            SecTrustSetAnchorCertificates(serverTrust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(serverTrust, false)
        }
        guard SecTrustEvaluateWithError(serverTrust, nil) else { return (.cancelAuthenticationChallenge, nil) }
        if pins != nil {
            guard let digest = Self.publicKeySHA256(of: serverTrust),
                trust.permits(host: challenge.protectionSpace.host, publicKeySHA256: digest)
            else { return (.cancelAuthenticationChallenge, nil) }
        }
        return (.useCredential, URLCredential(trust: serverTrust))
    }

    /// SHA-256 of the leaf certificate's SubjectPublicKeyInfo.
    static func publicKeySHA256(of serverTrust: SecTrust) -> [UInt8]? {
        guard let chain = SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate],
            let leaf = chain.first,
            let key = SecCertificateCopyKey(leaf),
            let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?,
            let attributes = SecKeyCopyAttributes(key) as? [String: Any],
            let type = attributes[kSecAttrKeyType as String] as? String,
            let size = attributes[kSecAttrKeySizeInBits as String] as? Int
        else { return nil }
        let algorithm: SubjectPublicKeyInfo.Algorithm
        switch type {
        case kSecAttrKeyTypeRSA as String: algorithm = .rsa
        case kSecAttrKeyTypeECSECPrimeRandom as String: algorithm = .ellipticCurve
        default: return nil
        }
        guard let spki = SubjectPublicKeyInfo.der(algorithm: algorithm, keySizeInBits: size, rawKey: Array(raw)) else {
            return nil
        }
        return Array(CryptoKit.SHA256.hash(data: spki))
    }
}
#endif
