import Courier
import ExampleAPIs
import Foundation
import HTTPTypes
import ReferenceServer
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

    @Test("a loop and a chain longer than the limit fail fast; the limit is configurable", arguments: TransportKind.allCases)
    func limits(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let (loop, elapsed) = await measure { await capture { try await root(backends).send(Request<Data>(.get, "redirect/loop")) } }
            #expect(loop.error?.kind == .invalidResponse)
            #expect(loop.error?.message?.contains("loop") == true)
            #expect(elapsed < hangBound)

            let short = root(backends) { $0.redirectLimit = 3 }
            let tooLong = await capture { try await short.send(Request<JSONValue>(.get, "redirect/chain/5")) }
            #expect(tooLong.error?.kind == .invalidResponse)
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
}
