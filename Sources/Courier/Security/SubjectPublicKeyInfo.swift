import Foundation

/// Builds the DER SubjectPublicKeyInfo that a public-key pin hashes from the raw key bytes Apple's
/// `SecKeyCopyExternalRepresentation` gives (PKCS#1 for RSA, the uncompressed point for EC).
enum SubjectPublicKeyInfo {
    enum Algorithm {
        case rsa
        case ellipticCurve
    }

    /// The DER encoding, or `nil` for an algorithm or curve size pins do not cover.
    static func der(algorithm: Algorithm, keySizeInBits: Int, rawKey: [UInt8]) -> [UInt8]? {
        let identifier: [UInt8]
        switch algorithm {
        case .rsa:
            // rsaEncryption, NULL parameters.
            identifier = sequence(objectIdentifier([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]) + [0x05, 0x00])
        case .ellipticCurve:
            let curve: [UInt8]
            switch keySizeInBits {
            case 256: curve = [0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]  // prime256v1
            case 384: curve = [0x2B, 0x81, 0x04, 0x00, 0x22]  // secp384r1
            case 521: curve = [0x2B, 0x81, 0x04, 0x00, 0x23]  // secp521r1
            default: return nil
            }
            // id-ecPublicKey with the named curve.
            identifier = sequence(objectIdentifier([0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]) + objectIdentifier(curve))
        }
        return sequence(identifier + element(tag: 0x03, [0x00] + rawKey))
    }

    static func sequence(_ content: [UInt8]) -> [UInt8] { element(tag: 0x30, content) }

    static func objectIdentifier(_ content: [UInt8]) -> [UInt8] { element(tag: 0x06, content) }

    /// Tag, DER length (short form below 128, long form above), content.
    static func element(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var count = content.count
        if count < 0x80 {
            length = [UInt8(count)]
        } else {
            while count > 0 {
                length.insert(UInt8(count & 0xFF), at: 0)
                count >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }
}
