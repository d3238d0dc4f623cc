// Client certificates are the AsyncHTTPClient transport's: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Client identities: what a transport reads, and what it says about what it cannot", .enabled(if: OpenSSLCommand.isAvailable, "needs /usr/bin/openssl"))
struct ClientIdentityLoadingTests {
    static let passphrase = "bundle-pass-93ab"

    /// A client certificate and key from a test CA, written to `directory` as `client.pem` and `client.key`.
    static func writeCertificate(in directory: URL) throws -> (certificate: URL, key: URL) {
        let issued = try LoopbackCertificates().clientCertificate()
        let certificate = directory.appendingPathComponent("client.pem")
        let key = directory.appendingPathComponent("client.key")
        try issued.certificatePEM.write(to: certificate, atomically: true, encoding: .utf8)
        try issued.privateKeyPEM.write(to: key, atomically: true, encoding: .utf8)
        return (certificate, key)
    }

    /// A PKCS#12 bundle `openssl pkcs12 -export` writes with `options`.
    static func bundle(_ options: [String], in directory: URL) throws -> Data {
        let (certificate, key) = try writeCertificate(in: directory)
        let bundle = directory.appendingPathComponent("client.p12")
        let written = try OpenSSLCommand.run(
            ["pkcs12", "-export", "-in", certificate.path, "-inkey", key.path, "-out", bundle.path, "-passout", "pass:\(passphrase)"] + options
        )
        try #require(written, "openssl pkcs12 -export \(options.joined(separator: " "))")
        return try Data(contentsOf: bundle)
    }

    /// The error creating a transport with `identity` throws, or `nil` when the transport is created.
    static func refusal(of identity: ClientIdentity) async throws -> CourierError? {
        do {
            let transport = try HTTPClientTransport(trust: ServerTrust(), clientIdentity: identity)
            try await transport.shutdown()
            return nil
        } catch {
            return CourierError(error)
        }
    }

    @Test(
        "bundles as openssl pkcs12 -export writes them are read",
        arguments: [
            [],  // OpenSSL 3: AES-256-CBC, PBKDF2 with HMAC-SHA-256, a SHA-256 MAC
            ["-legacy"],  // RC2-40 and 3DES, SHA-1 MAC
            ["-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES", "-macalg", "sha1"],
            ["-keypbe", "aes-128-cbc", "-certpbe", "aes-128-cbc"],
            ["-keypbe", "des-ede3-cbc", "-certpbe", "des-ede3-cbc"],
            ["-macalg", "sha512"],
            ["-keypbe", "NONE", "-certpbe", "NONE"],
        ]
    )
    func readBundles(options: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try Self.bundle(options, in: directory)
            #expect(try await Self.refusal(of: .pkcs12(bundle, passphrase: Self.passphrase)) == nil)
        }
    }

    @Test("a Keychain identity is refused at creation, naming the URLSession transport")
    func keychainIdentityRefused() async throws {
        let refusal = try await Self.refusal(of: .keychain(label: "Example Client"))
        #expect(refusal?.kind == .invalidRequest)
        #expect(refusal?.message?.contains("SessionTransport(clientIdentity:proxy:)") == true)
    }

    @Test("a wrong passphrase says so, and bytes that are not PKCS#12 say that instead")
    func wrongPassphraseAndNotABundle() async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try Self.bundle([], in: directory)
            let wrong = try await Self.refusal(of: .pkcs12(bundle, passphrase: "not-it"))
            #expect(wrong?.kind == .invalidRequest)
            #expect(wrong?.message?.contains("passphrase does not open the PKCS#12") == true)

            let notABundle = try await Self.refusal(of: .pkcs12(Data("these bytes are no bundle".utf8), passphrase: Self.passphrase))
            #expect(notABundle?.kind == .invalidRequest)
            #expect(notABundle?.message?.contains("is not a PKCS#12 bundle") == true)

            let truncated = try await Self.refusal(of: .pkcs12(bundle.prefix(bundle.count / 2), passphrase: Self.passphrase))
            #expect(truncated?.message?.contains("is not a PKCS#12 bundle") == true)

            let pem = try await Self.refusal(of: .pkcs12(try Data(contentsOf: directory.appendingPathComponent("client.pem")), passphrase: Self.passphrase))
            #expect(pem?.message?.contains("is PEM text, not PKCS#12") == true)

            for error in [wrong, notABundle, truncated, pem].compactMap(\.self) {
                #expect(!reflectedText(of: error).contains(Self.passphrase))
                #expect(error.message?.contains("not-it") == false)
            }
        }
    }

    @Test("a bundle protected in a way BoringSSL cannot read says so", arguments: [["-keypbe", "camellia-256-cbc", "-certpbe", "camellia-256-cbc"], ["-nomac"]])
    func unsupportedProtection(options: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let bundle = try Self.bundle(options, in: directory)
            let refused = try await Self.refusal(of: .pkcs12(bundle, passphrase: Self.passphrase))
            #expect(refused?.kind == .invalidRequest)
            #expect(refused?.message?.contains("protected in a way Courier cannot read") == true)
        }
    }

    @Test(
        "an encrypted PEM key is refused, saying it is encrypted",
        arguments: [["pkey", "-aes256"], ["ec", "-aes256"]]
    )
    func encryptedPEMKey(command: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let (certificate, key) = try Self.writeCertificate(in: directory)
            let encrypted = directory.appendingPathComponent("encrypted.key")
            let written = try OpenSSLCommand.run(
                [command[0], "-in", key.path, "-out", encrypted.path, "-passout", "pass:\(Self.passphrase)"] + command.dropFirst()
            )
            try #require(written)
            let identity = try ClientIdentity.pem(certificateChainFile: certificate, privateKeyFile: encrypted)
            let refused = try await Self.refusal(of: identity)
            #expect(refused?.kind == .invalidRequest)
            #expect(refused?.message?.contains("private key is encrypted PEM") == true)
            let plain = try await Self.refusal(of: try .pem(certificateChainFile: certificate, privateKeyFile: key))
            #expect(plain == nil)
        }
    }

    @Test("a transport with a client key and proxy credentials shows neither to reflection")
    func transportReflection() async throws {
        let issued = try LoopbackCertificates().clientCertificate()
        let password = "proxy-s3cret-5e1"
        let transport = try HTTPClientTransport(
            trust: ServerTrust(),
            clientIdentity: .pem(certificateChain: issued.certificatePEM, privateKey: issued.privateKeyPEM),
            proxy: .http(host: "127.0.0.1", port: 3128, credentials: ProxyCredentials(username: "ada", password: password))
        )
        let text = reflectedText(of: transport)
        try await transport.shutdown()
        let keyBody = issued.privateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        for secret in [password, Data("ada:\(password)".utf8).base64EncodedString(), keyBody] {
            #expect(!text.contains(secret))
        }
    }
}
#endif
