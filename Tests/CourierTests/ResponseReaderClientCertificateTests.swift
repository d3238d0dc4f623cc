@testable import Courier
import Foundation
import HTTPTypes
import Testing

@Suite("A client certificate refused after the TLS handshake, as nginx refuses it, is clientCertificateRefused over https")
struct ResponseReaderClientCertificateTests {
    /// nginx 1.22's page for a refusal under `ssl_verify_client on`.
    static func nginxPage(_ reason: String) -> Data {
        Data(
            """
            <html>
            <head><title>400 \(reason)</title></head>
            <body>
            <center><h1>400 Bad Request</h1></center>
            <center>\(reason)</center>
            <hr><center>nginx/1.22.1</center>
            </body>
            </html>

            """.utf8)
    }

    static let https = URL(string: "https://api.example.com/v1/me")
    static let http = URL(string: "http://api.example.com/v1/me")

    static func error(_ status: Int, _ body: Data, url: URL?) -> CourierError {
        let response = HTTPResponse(status: .init(code: status), headerFields: [.contentType: "text/html"])
        return ResponseReader.error(for: response, body: body, errorFormat: .standard, url: url)
    }

    @Test("nginx's 400 for a missing certificate says none was sent")
    func missing() {
        let error = Self.error(400, Self.nginxPage("No required SSL certificate was sent"), url: Self.https)
        #expect(error.kind == .clientCertificateRefused)
        #expect(error.message?.contains("requires a client certificate (mutual TLS), and none was sent") == true)
        #expect(error.status == .badRequest)
        #expect(error.responseBody != nil)
    }

    @Test("nginx's 400 for a refused certificate says it was refused")
    func refused() {
        let error = Self.error(400, Self.nginxPage("The SSL certificate error"), url: Self.https)
        #expect(error.kind == .clientCertificateRefused)
        #expect(error.message?.contains("refused the client certificate") == true)
    }

    @Test("496 and 495 are a missing and a refused certificate, whatever the body")
    func statuses() {
        let required = Self.error(496, Data(), url: Self.https)
        #expect(required.kind == .clientCertificateRefused)
        #expect(required.message?.contains("none was sent: it answered 496 (SSL Certificate Required)") == true)
        let refused = Self.error(495, Data("{}".utf8), url: Self.https)
        #expect(refused.kind == .clientCertificateRefused)
        #expect(refused.message?.contains("495 (SSL Certificate Error)") == true)
    }

    @Test("over plain http, or without the reason, a 400 stays a client error and 495/496 other 4xx statuses")
    func otherwise() {
        #expect(Self.error(400, Self.nginxPage("No required SSL certificate was sent"), url: Self.http).kind == .clientError)
        #expect(Self.error(400, Self.nginxPage("No required SSL certificate was sent"), url: nil).kind == .clientError)
        #expect(Self.error(496, Data(), url: Self.http).kind == .clientError)
        #expect(Self.error(400, Self.nginxPage("Request Header Or Cookie Too Large"), url: Self.https).kind == .clientError)
        #expect(Self.error(403, Self.nginxPage("The SSL certificate error"), url: Self.https).kind == .forbidden)
    }

    @Test("a decoded call refuses the same way as an error status read on its own")
    func throughRead() {
        let response = HTTPResponse(status: .badRequest, headerFields: [.contentType: "text/html"])
        let error = #expect(throws: CourierError.self) {
            try ResponseReader.read(
                response,
                body: Self.nginxPage("No required SSL certificate was sent"),
                decoding: Request<Data>(.get, "me").decoding,
                decoder: ResponseJSONDecoder(settings: JSONDecoder(), implementation: .utf8),
                errorFormat: .standard,
                url: Self.https
            )
        }
        #expect(error?.kind == .clientCertificateRefused)
    }
}
