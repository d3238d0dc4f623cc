// Pinning is the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import AsyncHTTPClient
@testable import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOSSL
import ReferenceServer
import TestSupport
import Testing

@Suite("HTTPS on loopback: custom roots and public-key pins", .timingSensitive)
struct TLSPinningTests {
    /// Starts the reference server over HTTPS with freshly generated certificates.
    func withHTTPSServer<T>(_ body: (ReferenceServer, LoopbackCertificates) async throws -> T) async throws -> T {
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        return try await withBackends(options: options) { backends in try await body(backends.server, certificates) }
    }

    /// Sends one GET through `transport`, shuts the transport down, and returns the outcome.
    func get(_ server: ReferenceServer, through transport: HTTPClientTransport) async throws -> Result<JSONValue, CourierError> {
        let client = Client(baseURL: BaseURL(server.baseURL), transport: transport) { $0.timeout = .seconds(20) }
        let result = await capture { try await client.send(Request<JSONValue>(.get, "echo/secure")) }
        try await transport.shutdown()
        return result
    }

    @Test("the server's pin computed by swift-certificates equals the one NIOSSL reads from the certificate")
    func pinsAgree() throws {
        let certificates = try LoopbackCertificates()
        let certificate = try #require(try NIOSSLCertificate.fromPEMBytes(Array(certificates.serverCertificatePEM.utf8)).first)
        let spki = try certificate.extractPublicKey().toSPKIBytes()
        #expect(spki == certificates.serverSubjectPublicKeyInfo)
        let pin = try PublicKeyPin(sha256Base64: certificates.serverPublicKeySHA256)
        #expect(pin.sha256.count == 32)
    }

    @Test("the pieces Apple's URLSession pinning builds on: PEM roots to DER, raw EC key to SubjectPublicKeyInfo")
    func applePinningPieces() throws {
        let certificates = try LoopbackCertificates()
        let root = try #require(try NIOSSLCertificate.fromPEMBytes(Array(certificates.rootCertificatePEM.utf8)).first)
        let der = try ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]).rootCertificatesDER()
        #expect(der.map(Array.init) == [try root.toDERBytes()])
        // SecKeyCopyExternalRepresentation gives an EC key as its uncompressed point: the SPKI's last 65 bytes.
        let raw = Array(certificates.serverSubjectPublicKeyInfo.suffix(65))
        #expect(SubjectPublicKeyInfo.der(algorithm: .ellipticCurve, keySizeInBits: 256, rawKey: raw) == certificates.serverSubjectPublicKeyInfo)
        #expect(throws: CourierError.self) {
            try ServerTrust(additionalRootCertificates: ["-----BEGIN CERTIFICATE-----\n%%%\n-----END CERTIFICATE-----"]).rootCertificatesDER()
        }
    }

    @Test("a custom root is trusted, and a matching pin lets the request through")
    func matchingPin() async throws {
        try await withHTTPSServer { server, certificates in
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
            let pins: Set<PublicKeyPin> = [
                try PublicKeyPin(sha256Base64: certificates.serverPublicKeySHA256),
                try PublicKeyPin(sha256: Array(repeating: 7, count: 32)),  // a backup key
            ]
            let transport = try HTTPClientTransport(
                trust: ServerTrust(
                    additionalRootCertificates: [certificates.rootCertificatePEM],
                    pins: ["127.0.0.1": pins]
                ))
            let echo = try await get(server, through: transport).get()
            #expect(echo["path"] == "/echo/secure")
            #expect(server.requestCount == 1)
        }
    }

    @Test("a host that requires pins is reached only through a transport that pins it")
    func hostsRequiringPins() async throws {
        try await withHTTPSServer { server, certificates in
            let pin = try PublicKeyPin(sha256Base64: certificates.serverPublicKeySHA256)
            let pinned = try HTTPClientTransport(
                trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM], pins: ["127.0.0.1": [pin]])
            )
            let unpinned = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]))
            #expect(pinned.pinnedHosts == ["127.0.0.1"])
            var outcomes: [Result<JSONValue, CourierError>] = []
            for transport in [pinned, unpinned] {
                let client = Client(baseURL: BaseURL(server.baseURL), transport: transport) {
                    $0.timeout = .seconds(20)
                    $0.hostsRequiringPins = ["127.0.0.1"]
                }
                outcomes.append(await capture { try await client.send(Request<JSONValue>(.get, "echo/secure")) })
                try await transport.shutdown()
            }
            #expect((try? outcomes[0].get())?["path"]?.stringValue == "/echo/secure")
            #expect(outcomes[1].error?.kind == .untrustedServer)
            #expect(outcomes[1].error?.message?.contains("must be reached over a pinned connection") == true)
            #expect(server.requestCount == 1)
        }
    }

    @Test("a pin mismatch fails as untrusted before any request reaches the server")
    func pinMismatch() async throws {
        try await withHTTPSServer { server, certificates in
            let wrong = try PublicKeyPin(sha256: Array(repeating: 0xAB, count: 32))
            let transport = try HTTPClientTransport(
                trust: ServerTrust(
                    additionalRootCertificates: [certificates.rootCertificatePEM],
                    pins: ["127.0.0.1": [wrong]]
                ))
            let (result, elapsed) = try await measure { try await get(server, through: transport) }
            let error = try #require(result.error)
            #expect(error.kind == .untrustedServer)
            #expect(error.localizedDescription.contains("matches none of its 1 pins: \(wrong)."))
            #expect(error.localizedDescription.contains("127.0.0.1 presented public key sha256/"))
            #expect(elapsed < hangBound)
            #expect(server.requestCount == 0)
        }
    }

    @Test("pins apply per host: a pin for another host leaves this one to the usual checks")
    func pinsPerHost() async throws {
        try await withHTTPSServer { server, certificates in
            let transport = try HTTPClientTransport(
                trust: ServerTrust(
                    additionalRootCertificates: [certificates.rootCertificatePEM],
                    pins: ["api.example.com": [try PublicKeyPin(sha256: Array(repeating: 1, count: 32))]]
                ))
            _ = try await get(server, through: transport).get()
            #expect(server.requestCount == 1)
        }
    }

    @Test("without the custom root the certificate is untrusted, and nothing is sent", arguments: TransportKind.allCases)
    func unknownRoot(transport: TransportKind) async throws {
        try await withHTTPSServer { server, _ in
            let client = Client(baseURL: BaseURL(server.baseURL), transport: transport.make()) { $0.timeout = .seconds(20) }
            let result = await capture { try await client.send(Request<JSONValue>(.get, "echo/secure")) }
            #expect(result.error?.kind == .untrustedServer, "\(String(reflecting: result.error?.underlyingError))")
            #expect(server.requestCount == 0)
        }
    }

    @Test("a root certificate that is not PEM is an invalid request")
    func badRoot() {
        let error = #expect(throws: CourierError.self) {
            try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: ["not a certificate"]))
        }
        #expect(error?.kind == .invalidRequest)
    }
}
#endif
