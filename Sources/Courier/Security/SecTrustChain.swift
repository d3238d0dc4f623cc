#if canImport(Security)
import Foundation
import Security

/// A server's chain as the Security framework reads it.
// @unchecked: a challenge's `SecTrust` is only touched by its one evaluation until it is answered.
struct SecTrustChain: PresentedChain, @unchecked Sendable {
    private let serverTrust: SecTrust

    init?(_ challenge: URLAuthenticationChallenge) {
        guard challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let serverTrust = challenge.protectionSpace.serverTrust
        else { return nil }
        self.serverTrust = serverTrust
    }

    func failure(trustingAlso roots: [Data]) -> (any Error)? {
        let anchors = roots.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        if !anchors.isEmpty {
            SecTrustSetAnchorCertificates(serverTrust, anchors as CFArray)
            SecTrustSetAnchorCertificatesOnly(serverTrust, false)
        }
        var error: CFError?
        if SecTrustEvaluateWithError(serverTrust, &error) { return nil }
        return error.map { $0 as any Error } ?? CourierError(.untrustedServer)
    }

    var leafSubjectPublicKeyInfo: [UInt8]? {
        guard let leaf = (SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate])?.first,
            let key = SecCertificateCopyKey(leaf),
            let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?,
            let attributes = SecKeyCopyAttributes(key) as? [String: Any],
            let size = attributes[kSecAttrKeySizeInBits as String] as? Int
        else { return nil }
        switch attributes[kSecAttrKeyType as String] as? String {
        case kSecAttrKeyTypeRSA as String: return SubjectPublicKeyInfo.der(algorithm: .rsa, keySizeInBits: size, rawKey: Array(raw))
        case kSecAttrKeyTypeECSECPrimeRandom as String:
            return SubjectPublicKeyInfo.der(algorithm: .ellipticCurve, keySizeInBits: size, rawKey: Array(raw))
        default: return nil
        }
    }

    var credential: URLCredential { URLCredential(trust: serverTrust) }

    static func reads(certificate der: Data) -> Bool {
        SecCertificateCreateWithData(nil, der as CFData) != nil
    }
}
#endif
