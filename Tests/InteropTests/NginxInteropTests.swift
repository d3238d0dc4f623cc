import Courier
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
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

    @Test("a text file nginx sends gzipped arrives decoded; nginx records the Accept-Encoding and the compressed size", arguments: TransportKind.allCases)
    func gzip(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("compressible.txt", Self.text)
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            let body = try await client.send(Request<Data>(.get, "compressible.txt"))
            #expect(String(decoding: body, as: UTF8.self) == Self.text)
            let record = try await nginx.accessRecord { $0.uri == "/compressible.txt" }
            #expect(record.acceptEncoding.contains("gzip"))
            #expect(record.bodyBytesSent < Self.text.utf8.count)
        }
    }

    @Test("secure_link: a signed link is served, an expired one is 410, a forged one 403", arguments: TransportKind.allCases)
    func secureLink(transport: TransportKind) async throws {
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try nginx.writeFile("signed.bin", "for signed eyes")
            let client = Client(baseURL: BaseURL(nginx.httpURL), transport: transport.make())
            let valid = nginx.secureLinkQuery(for: "/secure/signed.bin", expires: Date() + 3600)
            let body = try await client.send(Request<Data>(.get, "secure/signed.bin", query: ["md5": valid.md5, "expires": valid.expires]))
            #expect(String(decoding: body, as: UTF8.self) == "for signed eyes")
            let expired = nginx.secureLinkQuery(for: "/secure/signed.bin", expires: Date() - 60)
            let late = await capture { try await client.send(Request<Data>(.get, "secure/signed.bin", query: ["md5": expired.md5, "expires": expired.expires])) }
            #expect(late.error?.status == .gone)
            let forged = await capture { try await client.send(Request<Data>(.get, "secure/signed.bin", query: ["md5": "AAAAAAAAAAAAAAAAAAAAAA", "expires": valid.expires])) }
            #expect(forged.error?.status == .forbidden)
            let statuses = try await InteropRecordMissing.wait(for: "three secure_link requests", within: .seconds(30), record: nginx.errorLog) {
                let statuses = nginx.accessRecords.filter { $0.uri.hasPrefix("/secure/") }.map(\.status)
                return statuses.count == 3 ? statuses : nil
            }
            #expect(statuses == [200, 410, 403])
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

    // URLSession runs a transfer that reports progress in the transport's own session, not one of
    // its own. With one connection per host allowed, a call that starts before the last one's
    // connection is back in the pool waits for it rather than opening another, so the count is
    // exact on a busy machine too. (AsyncHTTPClient has one pool for every kind of call.)
    @Test("over URLSession, an upload and a download that report progress share the session's one connection with the calls around them; each call returns after its last progress")
    func transfersWithProgressShareConnections() async throws {
        let configuration = URLSession.courierConfiguration()
        configuration.httpMaximumConnectionsPerHost = 1
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        try await withInteropServer(try await NginxServer.start()) { nginx in
            try await withTemporaryDirectory { directory in
                try nginx.writeFile("hello.txt", Self.text)
                let size = (1 << 20) + 5
                let file = directory.appendingPathComponent("upload.bin")
                try PatternFile.write(size, to: file)
                try nginx.writeFile("download.bin", try Data(contentsOf: file))
                let client = Client(baseURL: BaseURL(nginx.httpURL), transport: SessionTransport(session: session))

                _ = try await client.send(Request<Data>(.get, "hello.txt"))
                let uploads = ProgressLog()
                try await client.send(Request<Void>(.put, "uploads/upload.bin", body: .file(file, contentType: "application/octet-stream"))) {
                    uploads.record($0)
                }
                #expect(uploads.all.last { $0.direction == .upload }?.completedBytes == Int64(size))
                let downloads = ProgressLog()
                let destination = directory.appendingPathComponent("download.bin")
                _ = try await client.download(Request<Data>(.get, "download.bin"), to: destination) { downloads.record($0) }
                #expect(downloads.all.last { $0.direction == .download }?.completedBytes == Int64(size))
                _ = try await client.send(Request<Data>(.get, "hello.txt"))

                let records = nginx.accessRecords
                #expect(records.map(\.uri) == ["/hello.txt", "/uploads/upload.bin", "/download.bin", "/hello.txt"])
                #expect(Set(records.map(\.connection)).count == 1, "one connection for all four: \(records.map(\.connection))")
                #expect(records.map(\.connectionRequests) == [1, 2, 3, 4])
            }
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
            // AsyncHTTPClient offers HTTP/2 by ALPN, and nginx's TLS listeners take it.
            #expect(record.serverProtocol == "HTTP/2.0")
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
