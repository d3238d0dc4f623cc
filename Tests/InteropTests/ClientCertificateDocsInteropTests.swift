import Courier
import Foundation
import ReferenceServer
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

/// Checks of "Connections" (Client certificates, How servers refuse a certificate), written from
/// the article alone, against nginx's listener with `ssl_verify_client on`, which completes the
/// handshake whatever the client presents and answers 400 after it.
@Suite("Against nginx's ssl_verify_client on: client certificates as Connections describes them", .requires(.nginx))
struct ClientCertificateDocsInteropTests {
    /// What the client presents.
    enum Presented: String, CaseIterable, Sendable, CustomStringConvertible {
        case none, untrustedIssuer, expired
        var description: String { rawValue }
    }

    #if AsyncHTTPClient
    @Test("an identity read from PEM files is presented: the call succeeds and nginx records SUCCESS with its subject")
    func identityFromFiles() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withTemporaryDirectory { directory in
                let issued = try nginx.certificates.clientCertificate(commonName: "courier-docs-files")
                let certificateFile = directory.appendingPathComponent("client.pem")
                let keyFile = directory.appendingPathComponent("client.key")
                try Data(issued.certificatePEM.utf8).write(to: certificateFile)
                try Data(issued.privateKeyPEM.utf8).write(to: keyFile)
                let transport = try HTTPClientTransport(
                    trust: ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM]),
                    clientIdentity: try .pem(certificateChainFile: certificateFile, privateKeyFile: keyFile)
                )
                let client = Client(baseURL: BaseURL(nginx.mutualTLSURL), transport: transport)
                let seen = await capture { try await client.send(Request<JSONValue>(.get, "client-certificate")) }
                try await transport.shutdown()
                #expect(try seen.get()["verify"]?.stringValue == "SUCCESS")
                let record = try await nginx.accessRecord { $0.uri == "/client-certificate" }
                #expect(record.status == 200)
                #expect(record.sslClientSubject.contains("CN=courier-docs-files"))
            }
        }
    }

    @Test("refused after the handshake (nginx's 400): clientCertificateRefused saying why, the server's answer kept, no key in any text", arguments: Presented.allCases)
    func refused(presented: Presented) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let (transport, privateKey) = try Self.transport(presenting: presented, to: nginx)
            let client = Client(baseURL: BaseURL(nginx.mutualTLSURL), transport: transport)
            let refused = await capture { try await client.send(Request<JSONValue>(.get, "client-certificate")) }
            try await transport.shutdown()
            let error = try #require(refused.error)
            let message = error.message ?? ""
            #expect(error.kind == .clientCertificateRefused)
            #expect(error.status == .badRequest)
            let page = String(decoding: error.responseBody ?? Data(), as: UTF8.self)
            #expect(page.contains(presented == .none ? "No required SSL certificate was sent" : "The SSL certificate error"))
            switch presented {
            case .none: #expect(message.lowercased().contains("no client certificate") || message.lowercased().contains("none"), "\(message)")
            case .untrustedIssuer: #expect(message.lowercased().contains("issuer") || message.lowercased().contains("trust"), "\(message)")
            case .expired: #expect(message.lowercased().contains("expired"), "\(message)")
            }
            if let privateKey {
                let keyBody = privateKey.split(separator: "\n").dropFirst().first.map(String.init) ?? privateKey
                #expect(!reflectedText(of: error).contains(keyBody))
                #expect(!reflectedText(of: transport).contains(keyBody))
            }
            let record = try await nginx.accessRecord { $0.uri == "/client-certificate" }
            #expect(record.status == 400)
            #expect(presented == .none ? record.sslClientVerify == "NONE" : record.sslClientVerify.hasPrefix("FAILED"), "\(record.sslClientVerify)")
        }
    }

    @Test("without a certificate a download and a stream are refused too, with clientCertificateRefused", arguments: ["download", "stream"])
    func refusedTransfers(call: String) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("statement.pdf", Data(repeating: 7, count: 4096))
            try await withTemporaryDirectory { directory in
                let (transport, _) = try Self.transport(presenting: .none, to: nginx)
                let client = Client(baseURL: BaseURL(nginx.mutualTLSURL), transport: transport)
                let refused: Result<Void, CourierError>
                if call == "download" {
                    refused = await capture { _ = try await client.download(Request<Data>(.get, "statement.pdf"), to: directory.appendingPathComponent("statement.pdf")) }
                } else {
                    refused = await capture {
                        for try await _ in try await client.stream(Request<Data>(.get, "statement.pdf")) {}
                    }
                }
                try await transport.shutdown()
                #expect(refused.error?.kind == .clientCertificateRefused, "\(String(describing: refused.error))")
                #expect(refused.error?.status == .badRequest)
                #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("statement.pdf").path))
                let record = try await nginx.accessRecord { $0.uri == "/statement.pdf" }
                #expect(record.status == 400)
                #expect(record.sslClientVerify == "NONE")
            }
        }
    }

    /// An AsyncHTTPClient transport that trusts nginx's root and presents `presented`, and the key
    /// it holds (`nil` for none).
    private static func transport(presenting presented: Presented, to nginx: NginxServer) throws -> (HTTPClientTransport, String?) {
        let trust = ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM])
        let issued: (certificatePEM: String, privateKeyPEM: String)
        switch presented {
        case .none: return (try HTTPClientTransport(trust: trust), nil)
        case .untrustedIssuer: issued = try LoopbackCertificates(commonName: "Some Other Root").clientCertificate(commonName: "courier-untrusted")
        case .expired: issued = try nginx.certificates.clientCertificate(commonName: "courier-expired", expired: true)
        }
        let identity = ClientIdentity.pem(certificateChain: issued.certificatePEM, privateKey: issued.privateKeyPEM)
        return (try HTTPClientTransport(trust: trust, clientIdentity: identity), issued.privateKeyPEM)
    }
    #endif

    @Test("on Linux the URLSession transport refuses a PEM identity when it is created, naming the AsyncHTTPClient transport; nginx sees nothing")
    func urlSessionRefusesIdentity() async throws {
        #if os(Linux)
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let issued = try nginx.certificates.clientCertificate(commonName: "courier-session")
            let error = #expect(throws: CourierError.self) {
                try SessionTransport(clientIdentity: .pem(certificateChain: issued.certificatePEM, privateKey: issued.privateKeyPEM), proxy: nil)
            }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message?.contains("AsyncHTTPClient") == true)
            #expect(!reflectedText(of: error as Any).contains(issued.privateKeyPEM.split(separator: "\n").dropFirst().first.map(String.init) ?? "-"))
            #expect(nginx.accessRecords.isEmpty)
        }
        #endif
    }
}
