// Client certificates are the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import Logging
import ReferenceServer
import TestSupport
import Testing

@Suite("Mutual TLS: a listener that requires a client certificate from its own test CA", .timingSensitive)
struct MutualTLSTests {
    /// Starts the reference server over HTTPS, requiring a client certificate signed by its root.
    static func withMutualTLSServer<T>(_ body: (ReferenceServer, LoopbackCertificates) async throws -> T) async throws -> T {
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        options.requiresClientCertificate = true
        return try await withBackends(options: options) { backends in try await body(backends.server, certificates) }
    }

    /// One `GET echo` with `identity`, its log lines in `log`; the transport is shut down after.
    static func echo(
        _ server: ReferenceServer,
        _ certificates: LoopbackCertificates,
        identity: ClientIdentity?,
        log: LockedBox<[String]> = LockedBox([])
    ) async throws -> Result<JSONValue, CourierError> {
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]), clientIdentity: identity)
        let logger = Logger(label: "mtls-test") { _ in LogCapture(lines: log) }
        let client = Client(baseURL: BaseURL(server.baseURL), transport: transport) {
            $0.timeout = .seconds(20)
            $0.middleware = [LoggingMiddleware(logger: logger, level: .debug)]
        }
        let result = await capture { try await client.send(Request<JSONValue>(.get, "echo/mutual")) }
        try await transport.shutdown()
        return result
    }

    /// The base64 body of a PEM key: what must never appear in a log or an error.
    static func keyBody(_ pem: String) -> String {
        pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    @Test("a certificate from the server's CA is accepted; none, an expired one or one from another CA is refused with its reason")
    func acceptedAndRefused() async throws {
        try await Self.withMutualTLSServer { server, certificates in
            let log = LockedBox<[String]>([])
            let valid = try certificates.clientCertificate()
            let accepted = try await Self.echo(server, certificates, identity: .pem(certificateChain: valid.certificatePEM, privateKey: valid.privateKeyPEM), log: log)
            #expect((try? accepted.get())?["path"]?.stringValue == "/echo/mutual")

            let missing = try await Self.echo(server, certificates, identity: nil, log: log)
            #expect(missing.error?.kind == .clientCertificateRefused)
            #expect(missing.error?.message?.contains("requires a client certificate") == true)

            let expired = try certificates.clientCertificate(expired: true)
            let late = try await Self.echo(server, certificates, identity: .pem(certificateChain: expired.certificatePEM, privateKey: expired.privateKeyPEM), log: log)
            #expect(late.error?.kind == .clientCertificateRefused)
            #expect(late.error?.message?.contains("expired") == true)

            let stranger = try LoopbackCertificates(commonName: "Another Root").clientCertificate()
            let foreign = try await Self.echo(server, certificates, identity: .pem(certificateChain: stranger.certificatePEM, privateKey: stranger.privateKeyPEM), log: log)
            #expect(foreign.error?.kind == .clientCertificateRefused)
            #expect(foreign.error?.message?.contains("does not trust the certificate's issuer") == true)

            // No private key reaches a log line or an error's descriptions.
            let errors = [missing.error, late.error, foreign.error].compactMap(\.self)
            let written = log.all.joined(separator: "\n") + errors.map { "\($0) \($0.localizedDescription) \(String(reflecting: $0))" }.joined()
            for key in [valid.privateKeyPEM, expired.privateKeyPEM, stranger.privateKeyPEM] {
                #expect(!written.contains(Self.keyBody(key)))
            }
            #expect(!log.all.isEmpty)
        }
    }

    @Test(
        "a PKCS#12 bundle from a file is presented as its PEM twin is, and a wrong passphrase refused at creation",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl"), "needs /usr/bin/openssl to write the bundle")
    )
    func pkcs12() async throws {
        try await Self.withMutualTLSServer { server, certificates in
            try await withTemporaryDirectory { directory in
                let valid = try certificates.clientCertificate()
                let certificate = directory.appendingPathComponent("client.pem")
                let key = directory.appendingPathComponent("client.key")
                let bundle = directory.appendingPathComponent("client.p12")
                try valid.certificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
                try valid.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
                let openssl = Process()
                openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
                openssl.arguments = [
                    "pkcs12", "-export", "-in", certificate.path, "-inkey", key.path, "-out", bundle.path, "-passout", "pass:bundle-pass",
                ]
                try openssl.run()
                openssl.waitUntilExit()
                try #require(openssl.terminationStatus == 0)
                let identity = try ClientIdentity.pkcs12(file: bundle, passphrase: "bundle-pass")
                let accepted = try await Self.echo(server, certificates, identity: identity)
                #expect((try? accepted.get())?["path"]?.stringValue == "/echo/mutual")
                let wrong = #expect(throws: CourierError.self) {
                    try HTTPClientTransport(trust: ServerTrust(), clientIdentity: .pkcs12(file: bundle, passphrase: "not-it"))
                }
                #expect(wrong?.kind == .invalidRequest)
                #expect(wrong?.message?.contains("not-it") == false)
                #expect(String(describing: identity) == "client identity (PKCS#12)")
            }
        }
    }

    @Test(
        "a refusal after the handshake as nginx makes it (400 with its reason, 496, 495) is clientCertificateRefused over https, a status over http",
        arguments: ["missing", "error", "496", "495"])
    func refusedAfterHandshake(reason: String) async throws {
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        try await withBackends(options: options) { backends in
            let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]))
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: transport) { $0.timeout = .seconds(20) }
            let result = await capture { try await client.send(Request<JSONValue>(.get, "certificate-refusal/\(reason)")) }
            let streamed = await capture { try await client.stream(Request<Data>(.get, "certificate-refusal/\(reason)")) }
            try await transport.shutdown()
            for error in [result.error, streamed.error] {
                #expect(error?.kind == .clientCertificateRefused, "\(String(describing: error))")
                let missing = ["missing", "496"].contains(reason)
                #expect(error?.message?.contains(missing ? "none was sent" : "refused the client certificate") == true)
            }
        }
        for transport in TransportKind.allCases {
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) { $0.timeout = .seconds(20) }
                let plain = await capture { try await client.send(Request<JSONValue>(.get, "certificate-refusal/\(reason)")) }
                #expect(plain.error?.kind == .clientError, "\(transport): \(String(describing: plain.error))")
            }
        }
    }

    @Test("a key that does not belong to its certificate, or unreadable PEM, is refused when the transport is created")
    func refusedAtCreation() throws {
        let certificates = try LoopbackCertificates()
        let one = try certificates.clientCertificate(commonName: "one")
        let other = try certificates.clientCertificate(commonName: "other")
        let mismatched = #expect(throws: CourierError.self) {
            try HTTPClientTransport(trust: ServerTrust(), clientIdentity: .pem(certificateChain: one.certificatePEM, privateKey: other.privateKeyPEM))
        }
        #expect(mismatched?.kind == .invalidRequest)
        #expect(mismatched?.message == "The client certificate's private key does not belong to the certificate.")
        let unreadable = #expect(throws: CourierError.self) {
            try HTTPClientTransport(trust: ServerTrust(), clientIdentity: .pem(certificateChain: "not a certificate", privateKey: one.privateKeyPEM))
        }
        #expect(unreadable?.kind == .invalidRequest)
        for error in [mismatched, unreadable].compactMap(\.self) {
            #expect(!"\(error) \(String(reflecting: error))".contains(Self.keyBody(one.privateKeyPEM)))
            #expect(!"\(error) \(String(reflecting: error))".contains(Self.keyBody(other.privateKeyPEM)))
        }
        #expect(String(describing: ClientIdentity.pem(certificateChain: one.certificatePEM, privateKey: one.privateKeyPEM)) == "client identity (PEM)")
    }
}
#endif
