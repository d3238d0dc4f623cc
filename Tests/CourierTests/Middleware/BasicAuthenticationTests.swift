@testable import Courier
import CourierTesting
import Foundation
import Testing

@Suite("Basic authentication: RFC 7617 credentials, refused before any traffic when invalid, never printed")
struct BasicAuthenticationTests {
    private func authorization(_ scheme: AuthenticationScheme) -> String? {
        var request = HTTPRequest(method: .get, scheme: "https", authority: "a.example", path: "/")
        scheme.apply("ignored-token", to: &request)
        return request.headerFields[.authorization]
    }

    @Test("RFC 7617's example: Aladdin with open sesame")
    func rfcExample() {
        #expect(authorization(.basic(username: "Aladdin", password: "open sesame")) == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test("username and password are encoded as UTF-8")
    func utf8() {
        // RFC 7617 §2.1's own example of the UTF-8 charset.
        #expect(authorization(.basic(username: "test", password: "123£")) == "Basic dGVzdDoxMjPCow==")
        #expect(authorization(.basic(username: "Zoë", password: "pässwörd🔑")) == "Basic Wm/Dqzpww6Rzc3fDtnJk8J+UkQ==")
    }

    @Test("the middleware sends the credentials with requests that want authentication, and delivers a 401")
    func middleware() async throws {
        let transport = StubTransport.scripted([.status(200), .status(200), .status(401)])
        // As in BasicAuthenticationMiddleware's documentation.
        let registry = Client(baseURL: "https://registry.example.com", transport: transport) {
            $0.middleware = [BasicAuthenticationMiddleware(username: "aladdin", password: "open sesame")]
        }
        try await registry.send(Request<Void>(.get, "packages"))
        try await registry.send(Request<Void>(.post, "login").withoutAuthentication())
        let error = await #expect(throws: CourierError.self) { try await registry.send(Request<Void>(.get, "private")) }
        #expect(error?.kind == .unauthorized)
        #expect(transport.requests.map { $0.headerFields[.authorization] } == ["Basic YWxhZGRpbjpvcGVuIHNlc2FtZQ==", nil, "Basic YWxhZGRpbjpvcGVuIHNlc2FtZQ=="])
    }

    @Test("a username with a colon, or control characters, fail as an invalid request before any traffic")
    func invalidCredentials() async throws {
        for middleware in [
            BasicAuthenticationMiddleware(username: "ala:ddin", password: "open sesame"),
            BasicAuthenticationMiddleware(username: "aladdin", password: "open\nsesame"),
        ] {
            let transport = StubTransport.scripted([])
            let client = Client.scripted(transport, middleware: [middleware])
            let error = await #expect(throws: CourierError.self) { try await client.send(Request<Void>(.get, "packages")) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message?.contains("RFC 7617") == true)
            #expect(transport.requests.isEmpty)
        }
        #expect(authorization(.basic(username: "aladdin", password: "open:sesame")) != nil, "a colon in the password is fine")
    }

    @Test("printing or dumping the scheme or the middleware shows no credentials")
    func redacted() {
        let middleware = BasicAuthenticationMiddleware(username: "Aladdin", password: "open sesame")
        var dumped = ""
        dump(middleware, to: &dumped)
        for text in ["\(middleware.scheme)", String(reflecting: middleware.scheme), "\(middleware)", dumped] {
            #expect(!text.contains("QWxh"))
            #expect(!text.contains("sesame"))
        }
        #expect("\(middleware.scheme)" == "Authorization: Basic <redacted>")
    }

    @Test("schemes name the header field or query parameter that carries the credentials")
    func redactionNames() {
        #expect(AuthenticationScheme.basic(username: "a", password: "b").headerName == .authorization)
        #expect(AuthenticationScheme.bearer.headerName == .authorization)
        #expect(AuthenticationScheme.header(HTTPField.Name("X-API-Token")!).headerName == HTTPField.Name("X-API-Token"))
        #expect(AuthenticationScheme.query("access_token").queryName == "access_token")
        #expect(AuthenticationScheme.query("access_token").headerName == nil)
        #expect(AuthenticationScheme.bearer.queryName == nil)
    }
}
