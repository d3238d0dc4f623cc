import Courier
#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
import ExampleAPIs
import Foundation
import HTTPTypes
import ReferenceServer
import TestSupport
import Testing

@Suite("Redirects are followed by Courier, and credentials stay with their origin", .timingSensitive)
struct RedirectTests {
    static let credentials: HTTPFields = [
        .authorization: "Bearer secret-token",
        .cookie: "session=secret-cookie",
        .proxyAuthorization: "Basic c2VjcmV0",
        .userAgent: "courier-tests",
    ]

    func root(_ backends: ReferenceBackends, configure: (inout Configuration) -> Void = { _ in }) -> Client {
        Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport, configure: configure)
    }

    @Test("a same-origin redirect keeps every header field", arguments: TransportKind.allCases)
    func sameOrigin(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let echo = try await root(backends).send(
                Request<Echo>(.get, "redirect", query: ["status": 302, "to": "/echo/target?x=1"], headerFields: Self.credentials)
            )
            #expect(echo.path == "/echo/target")
            #expect(echo.header("authorization") == "Bearer secret-token")
            #expect(echo.header("cookie") == "session=secret-cookie")
        }
    }

    @Test(
        "a redirect to another port drops Authorization, Cookie and Proxy-Authorization",
        arguments: TransportKind.allCases, [301, 302, 303, 307, 308])
    func crossOrigin(transport: TransportKind, status: Int) async throws {
        try await withBackends(transport) { backends in
            let target = "\(backends.server.analyticsBaseURL)/echo/elsewhere"
            let echo = try await root(backends).send(
                Request<Echo>(.get, "redirect", query: ["status": status, "to": target], headerFields: Self.credentials)
            )
            #expect(echo.path == "/echo/elsewhere")
            #expect(echo.header("authorization") == nil)
            #expect(echo.header("cookie") == nil)
            #expect(echo.header("proxy-authorization") == nil)
            #expect(echo.header("user-agent") == "courier-tests")
        }
    }

    @Test(
        "303 continues as GET without the body; 307 and 308 repeat the POST with it",
        arguments: TransportKind.allCases, [303, 307, 308])
    func methods(transport: TransportKind, status: Int) async throws {
        try await withBackends(transport) { backends in
            let echo = try await root(backends).send(
                Request<Echo>(.post, "redirect", query: ["status": status, "to": "/echo/posted"], body: .json(["name": "Ada"]))
            )
            #expect(echo.path == "/echo/posted")
            if status == 303 {
                #expect(echo.method == "GET")
                #expect(echo.body_size == 0)
                #expect(echo.content_type == nil)
            } else {
                #expect(echo.method == "POST")
                #expect(echo.body_text == #"{"name":"Ada"}"#)
            }
        }
    }

    @Test(
        "a 307 or 308 that would take a body with a password to another origin is refused; nothing reaches it",
        arguments: TransportKind.allCases, [307, 308])
    func crossOriginBodyRefused(transport: TransportKind, status: Int) async throws {
        let elsewhere = try await HostileServer.start(.reply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"))
        defer { Task { await elsewhere.stop() } }
        try await withBackends(transport) { backends in
            let login = Request<Echo>(
                .post, "redirect", query: ["status": status, "to": "\(elsewhere.baseURL)/login"],
                body: .json(["password": "hunter2"]))
            let refused = await capture { try await root(backends).send(login) }
            #expect(refused.error?.kind == .unexpectedStatus)
            #expect(refused.error?.status?.code == status)
            #expect(refused.error?.localizedDescription.contains("another origin") == true)
            #expect(refused.error.map { String(describing: $0) }?.contains("hunter2") == false)
            #expect(elsewhere.connections == 0)
        }
    }

    @Test(
        "with allowsCrossOriginBodyRedirects a 307 or 308 takes the body to another origin, without credentials",
        arguments: TransportKind.allCases, [307, 308])
    func crossOriginBodyAllowed(transport: TransportKind, status: Int) async throws {
        try await withBackends(transport) { backends in
            let target = "\(backends.server.analyticsBaseURL)/echo/elsewhere"
            let client = root(backends) { $0.allowsCrossOriginBodyRedirects = true }
            let echo = try await client.send(
                Request<Echo>(
                    .post, "redirect", query: ["status": status, "to": target],
                    body: .json(["name": "Ada"]), headerFields: Self.credentials))
            #expect(echo.method == "POST")
            #expect(echo.body_text == #"{"name":"Ada"}"#)
            #expect(echo.header("authorization") == nil)
        }
    }

    @Test(
        "a loop and a chain longer than the limit fail fast as tooManyRedirects; the limit is configurable",
        arguments: TransportKind.allCases)
    func limits(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let (loop, elapsed) = await measure { await capture { try await root(backends).send(Request<Data>(.get, "redirect/loop")) } }
            #expect(loop.error?.kind == .tooManyRedirects)
            #expect(loop.error?.message?.contains("loop") == true)
            #expect(elapsed < hangBound)

            let short = root(backends) { $0.redirectLimit = 3 }
            let tooLong = await capture { try await short.send(Request<JSONValue>(.get, "redirect/chain/5")) }
            #expect(tooLong.error?.kind == .tooManyRedirects)
            #expect(tooLong.error?.status == .found)
            let arrived = try await short.send(Request<JSONValue>(.get, "redirect/chain/3"))
            #expect(arrived["hops"]?.intValue == 0)

            let none = root(backends) { $0.redirectLimit = 0 }
            let unfollowed = await capture { try await none.send(Request<JSONValue>(.get, "redirect/chain/1")) }
            #expect(unfollowed.error?.kind == .unexpectedStatus)
            #expect(unfollowed.error?.status == .found)
        }
    }

    @Test("a Location that is not an http(s) URL is an invalid response", arguments: TransportKind.allCases)
    func badLocation(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let result = await capture {
                try await root(backends).send(Request<Data>(.get, "redirect", query: ["to": "file:///etc/passwd"]))
            }
            #expect(result.error?.kind == .invalidResponse)
        }
    }

    static let customCredentials: HTTPFields = [
        HTTPField.Name("X-API-Key")!: "secret-key",
        HTTPField.Name("X-Auth-Token")!: "secret-token",
        HTTPField.Name("X-Tenant-Secret")!: "secret-tenant",
        .userAgent: "courier-tests",
    ]

    @Test(
        "a redirect to another origin drops X-API-Key, X-Auth-Token, configured fields and the auth scheme's field",
        arguments: TransportKind.allCases, [301, 302, 303, 307, 308])
    func crossOriginCustomCredentials(transport: TransportKind, status: Int) async throws {
        try await withBackends(transport) { backends in
            let tokens = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "scheme-secret"))) { $0 }
            let client = root(backends) {
                $0.credentialFields.headerNames.insert(HTTPField.Name("X-Tenant-Secret")!)
                $0.middleware = [AuthenticationMiddleware(tokens, scheme: .header(HTTPField.Name("X-Session-Key")!))]
            }
            let target = "\(backends.server.analyticsBaseURL)/echo/elsewhere"
            let echo = try await client.send(
                Request<Echo>(.get, "redirect", query: ["status": status, "to": target], headerFields: Self.customCredentials)
            )
            #expect(echo.path == "/echo/elsewhere")
            #expect(echo.header("x-api-key") == nil)
            #expect(echo.header("x-auth-token") == nil)
            #expect(echo.header("x-tenant-secret") == nil)
            #expect(echo.header("x-session-key") == nil)
            #expect(echo.header("user-agent") == "courier-tests")

            let sameOrigin = try await client.send(
                Request<Echo>(.get, "redirect", query: ["status": status, "to": "/echo/here"], headerFields: Self.customCredentials)
            )
            #expect(sameOrigin.header("x-api-key") == "secret-key")
            #expect(sameOrigin.header("x-session-key") == "scheme-secret")
        }
    }

    #if AsyncHTTPClient
    // URLSession on Linux cannot trust the loopback root, so this runs over AsyncHTTPClient; the
    // decision is Courier's own on every transport (see RedirectDecisionTests).
    @Test("https never continues as plain http unless allowed, and never with a body")
    func downgrade() async throws {
        let plain = try await HostileServer.start(.reply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}"))
        let certificates = try LoopbackCertificates()
        var options = ReferenceServer.Options()
        options.tls = certificates
        let server = try await ReferenceServer.start(options)
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [certificates.rootCertificatePEM]))
        let client = Client(baseURL: BaseURL(server.baseURL), transport: transport)
        let refused = await capture {
            try await client.send(Request<Data>(.get, "redirect", query: ["to": "\(plain.baseURL)/landing"]))
        }
        #expect(refused.error?.kind == .insecureRedirect)
        #expect(plain.connections == 0)

        let permissive = Client(baseURL: BaseURL(server.baseURL), transport: transport) { $0.allowsInsecureRedirects = true }
        let withBody = await capture {
            try await permissive.send(
                Request<Data>(.post, "redirect", query: ["status": 307, "to": "\(plain.baseURL)/landing"], body: .json(["pin": "1234"]))
            )
        }
        #expect(withBody.error?.kind == .insecureRedirect)
        #expect(plain.connections == 0)
        _ = try await permissive.send(Request<Data>(.get, "redirect", query: ["to": "\(plain.baseURL)/landing"]))
        #expect(plain.connections == 1)
        try await transport.shutdown()
        await server.stop()
        await plain.stop()
    }
    #endif

    @Test("a Location naming a port above 65535 is an invalid response, never a crash", arguments: TransportKind.allCases)
    func impossiblePort(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            for target in ["http://127.0.0.1:99999/x", "http://localhost:70000/x", "http://127.0.0.1:0/x"] {
                let result = await capture { try await root(backends).send(Request<Data>(.get, "redirect", query: ["to": target])) }
                #expect(result.error?.kind == .invalidResponse, "\(target)")
            }
        }
    }

    @Test("a 401 from another origin reached by redirect does not refresh this origin's token", arguments: TransportKind.allCases)
    func crossOriginUnauthorized(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let refreshes = LockedBox(0)
            let tokens = AuthenticationSession(
                store: InMemoryTokenStore(AuthTokens(accessToken: "token", refreshToken: "refresh"))
            ) { tokens in
                refreshes.increment()
                return tokens
            }
            let client = root(backends) { $0.middleware = [AuthenticationMiddleware(tokens)] }
            let target = "\(backends.server.analyticsBaseURL)/echo/x?_fault=status%3D401"
            let result = await capture { try await client.send(Request<Data>(.get, "redirect", query: ["to": target])) }
            #expect(result.error?.kind == .unauthorized)
            #expect(refreshes.value == 0)
        }
    }
}
