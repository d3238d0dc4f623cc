import Courier
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

@Suite("Against nginx: static files, ranges, uploads and TLS, as nginx's access log records them", .requires(.nginx))
struct NginxInteropTests {
    static let text = String(repeating: "Courier meets nginx. ", count: 40)

    @Test("a static file comes back whole, and nginx records the GET", arguments: TransportKind.allCases)
    func staticFile(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("hello.txt", Self.text)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            let response = try await client.response(for: Request<Data>(.get, "hello.txt"))
            #expect(String(decoding: response.value, as: UTF8.self) == Self.text)
            #expect(response.headerFields[.eTag] != nil)
            let record = try await nginx.accessRecord { $0.uri == "/hello.txt" }
            #expect(record.method == "GET")
            #expect(record.status == 200)
            #expect(record.serverProtocol == "HTTP/1.1")
        }
    }

    @Test("a Range request gets 206 with the asked bytes, and nginx records the Range field", arguments: TransportKind.allCases)
    func range(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            // Not a text file: nginx compresses text for a client that accepts gzip, and answers a
            // compressed response's Range with the whole body.
            try nginx.writeFile("range.bin", Self.text)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            var fields = HTTPFields()
            fields[.range] = "bytes=0-6"
            let response = try await client.response(for: Request<Data>(.get, "range.bin", headerFields: fields))
            #expect(response.status == .partialContent)
            #expect(String(decoding: response.value, as: UTF8.self) == "Courier")
            let record = try await nginx.accessRecord { $0.uri == "/range.bin" }
            #expect(record.range == "bytes=0-6")
            #expect(record.status == 206)
            #expect(record.bodyBytesSent == 7)
        }
    }

    @Test("a PUT stores its body, and nginx records its Content-Length", arguments: TransportKind.allCases)
    func upload(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            let body = Data(Self.text.utf8)
            try await client.send(Request<Void>(.put, "uploads/put.txt", body: .data(body, contentType: "text/plain")))
            let record = try await nginx.accessRecord { $0.uri == "/uploads/put.txt" }
            #expect(record.method == "PUT")
            #expect(record.status == 201)
            #expect(record.contentLength == String(body.count))
            #expect(record.transferEncoding.isEmpty)
            #expect(try Data(contentsOf: nginx.uploadsDirectory.appendingPathComponent("put.txt")) == body)
        }
    }

    #if AsyncHTTPClient
    @Test("HTTPS from the test CA over the AsyncHTTPClient transport: nginx records TLS 1.3 and no client certificate")
    func https() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM]))
            let client = Client(baseURL: BaseURL(nginx.httpsURL), transport: transport)
            let seen = await capture { try await client.send(Request<JSONValue>(.get, "client-certificate")) }
            try await transport.shutdown()
            #expect(try seen.get()["verify"]?.stringValue == "NONE")
            let record = try await nginx.accessRecord { $0.uri == "/client-certificate" }
            #expect(record.sslProtocol == "TLSv1.3")
            #expect(record.sslClientVerify == "NONE")
        }
    }

    @Test("a listener with ssl_verify_client on accepts a client certificate from its CA, and nginx records the subject")
    func mutualTLS() async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            let client = try nginx.certificates.clientCertificate(commonName: "courier-interop-client")
            let transport = try HTTPClientTransport(
                trust: ServerTrust(additionalRootCertificates: [nginx.certificates.rootCertificatePEM]),
                clientIdentity: .pem(certificateChain: client.certificatePEM, privateKey: client.privateKeyPEM)
            )
            let courier = Client(baseURL: BaseURL(nginx.mutualTLSURL), transport: transport)
            let seen = await capture { try await courier.send(Request<JSONValue>(.get, "client-certificate")) }
            try await transport.shutdown()
            #expect(try seen.get()["verify"]?.stringValue == "SUCCESS")
            let record = try await nginx.accessRecord { $0.uri == "/client-certificate" }
            #expect(record.sslClientVerify == "SUCCESS")
            #expect(record.sslClientSubject.contains("CN=courier-interop-client"))
        }
    }
    #endif
}
