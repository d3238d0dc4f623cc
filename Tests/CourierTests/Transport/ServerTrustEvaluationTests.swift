import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Trust belongs to the URLSession transport")
struct ServerTrustEvaluationTests {
    /// A chain as a platform would read it: trusted or not, with a leaf key.
    struct FixedChain: PresentedChain {
        var failure: CourierError?
        var leafSubjectPublicKeyInfo: [UInt8]?

        init?(_ challenge: URLAuthenticationChallenge) { nil }

        init(failure: CourierError? = nil, key: [UInt8]?) {
            self.failure = failure
            self.leafSubjectPublicKeyInfo = key
        }

        func failure(trustingAlso roots: [Data]) -> (any Error)? { failure }
        var credential: URLCredential { URLCredential(user: "chain", password: "", persistence: .none) }
        static func reads(certificate der: Data) -> Bool { !der.isEmpty }
    }

    static let key: [UInt8] = Array("a SubjectPublicKeyInfo".utf8)
    static let rootPEM = "-----BEGIN CERTIFICATE-----\nAAEC\n-----END CERTIFICATE-----"

    func evaluation(pins: [String: Set<PublicKeyPin>]) throws -> ChainTrustEvaluation<FixedChain> {
        try ChainTrustEvaluation(ServerTrust(additionalRootCertificates: [Self.rootPEM], pins: pins))
    }

    @Test("a trusted chain whose key matches a pin is accepted; another key is refused as untrusted")
    func pins() throws {
        let evaluation = try evaluation(pins: ["api.example.com": [try PublicKeyPin(sha256: SHA256.hash(Self.key))]])
        #expect(evaluation.refusal(of: FixedChain(key: Self.key), host: "API.example.com") == nil)
        let refusal = try #require(evaluation.refusal(of: FixedChain(key: Array("another key".utf8)), host: "api.example.com"))
        #expect(refusal.kind == .untrustedServer)
        #expect(refusal.message?.contains("matches none of its 1 pins") == true)
        #expect(evaluation.refusal(of: FixedChain(key: nil), host: "api.example.com")?.kind == .untrustedServer)
    }

    @Test("a host without pins needs only a trusted chain; an untrusted chain is refused whatever its key")
    func chains() throws {
        let evaluation = try evaluation(pins: ["api.example.com": [try PublicKeyPin(sha256: SHA256.hash(Self.key))]])
        #expect(evaluation.refusal(of: FixedChain(key: nil), host: "other.example.com") == nil)
        let untrusted = FixedChain(failure: CourierError(.transportFailed, message: "expired"), key: Self.key)
        #expect(evaluation.refusal(of: untrusted, host: "api.example.com")?.kind == .untrustedServer)
        #expect(evaluation.refusal(of: untrusted, host: "other.example.com")?.kind == .untrustedServer)
    }

    @Test("a root the platform cannot read is an invalid request")
    func unreadableRoot() {
        let error = #expect(throws: CourierError.self) {
            try ChainTrustEvaluation<FixedChain>(ServerTrust(additionalRootCertificates: ["-----BEGIN CERTIFICATE-----\n\n-----END CERTIFICATE-----"]))
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("a trust with neither roots nor pins adds nothing to the platform's checks")
    func empty() throws {
        #expect(try ServerTrust().sessionEvaluation() == nil)
        _ = try SessionTransport(trust: ServerTrust())
    }

    #if canImport(FoundationNetworking)
    @Test("on Linux a URLSession transport given pins or roots refuses to start, naming the AsyncHTTPClient transport")
    func refusedOnLinux() throws {
        let pinned = ServerTrust(pins: ["api.example.com": [try PublicKeyPin(sha256: Array(repeating: 1, count: 32))]])
        let rooted = ServerTrust(additionalRootCertificates: [Self.rootPEM])
        for trust in [pinned, rooted] {
            let error = #expect(throws: CourierError.self) { try SessionTransport(trust: trust) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message?.contains("AsyncHTTPClient transport (HTTPClientTransport(trust:)") == true)
            #expect(throws: CourierError.self) { try SessionTransport.urlSession(trust: trust) }
        }
    }
    #endif
}
