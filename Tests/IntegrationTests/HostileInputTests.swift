import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Hostile input from the app is encoded or refused, never sent as is")
struct HostileInputTests {
    static let segments = ["a b", "ünïcødé 🚀", "../admin", "..%2F..", "?admin=1", "#top", "100%", "%00", "a/b", "\\\\server"]

    @Test("a path value is one percent-encoded segment below the base path", arguments: TransportKind.allCases, segments)
    func pathSegment(transport: TransportKind, value: String) async throws {
        try await withBackends(transport) { backends in
            let echo = try await backends.echo().send(Request<Echo>(.get, "items/\(value)/detail"))
            let parts = echo.path.split(separator: "/", omittingEmptySubsequences: false)
            #expect(parts.count == 5, "\(echo.path)")
            #expect(parts.prefix(3) == ["", "echo", "items"])
            #expect(parts.last == "detail")
            #expect(echo.raw_query == nil || echo.raw_query == "")
            #expect(!echo.path.contains("/../"))
        }
    }

    @Test("a value that is exactly a dot segment is refused before sending", arguments: TransportKind.allCases)
    func dotSegment(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            for value in [".", ".."] {
                let error = await #expect(throws: CourierError.self) {
                    try await backends.echo().send(Request<Echo>(.get, "items/\(value)"))
                }
                #expect(error?.kind == .invalidRequest)
            }
        }
    }

    @Test("a header value with CR or LF is refused before anything is sent", arguments: TransportKind.allCases)
    func headerInjection(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            for value in ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u{0}b"] {
                let error = await #expect(throws: CourierError.self) {
                    try await client.send(
                        Request<Data>(.get, "flaky/injection", query: ["failures": 0]).header(.userAgent, value)
                    )
                }
                #expect(error?.kind == .invalidRequest)
            }
            #expect(await backends.server.hits(forKey: "injection") == 0)
        }
    }

    @Test("a base URL without scheme or host, a non-finite number and a throwing encoder are errors", arguments: TransportKind.allCases)
    func badRequests(transport: TransportKind) async throws {
        struct Refuses: Encodable, Sendable {
            struct Refusal: Error {}
            func encode(to encoder: any Encoder) throws { throw Refusal() }
        }
        try await withBackends(transport) { backends in
            for base in ["127.0.0.1:8080/api", "http://", "/relative/only", "ftp://example.com"] {
                let client = Client(baseURL: BaseURL(base), transport: backends.transport)
                let error = await #expect(throws: CourierError.self) { try await client.send(Request<Data>(.get, "x")) }
                #expect(error?.kind == .invalidRequest, "\(base)")
            }
            let echo = backends.echo()
            let infinite = await #expect(throws: CourierError.self) {
                try await echo.send(Request<Echo>(.post, "x", body: .json(["value": Double.infinity])))
            }
            #expect(infinite?.kind == .encodingFailed)
            let refused = await #expect(throws: CourierError.self) {
                try await echo.send(Request<Echo>(.post, "x", body: .json(Refuses())))
            }
            #expect(refused?.kind == .encodingFailed)
        }
    }
}
