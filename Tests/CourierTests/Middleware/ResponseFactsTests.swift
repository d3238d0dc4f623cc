import Clocks
@testable import Courier
import CourierTesting
import Foundation
import OpenAPIRuntime
import TestSupport
import Testing

@Suite("Response facts come back through the chain with the response")
struct ResponseFactsTests {
    /// Notes the attempts, URL and source of every result that passes back through it.
    struct FactsSpy: Middleware {
        let seen: LockedBox<[String]>
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
        ) async throws -> MiddlewareResponse {
            let result = try await next(request, body, context)
            seen.mutate { $0.append("\(result.attempts) \(result.url.absoluteString) \(result.source)") }
            return result
        }
    }

    @Test("every middleware reads the attempts, final URL and source from what next returns")
    func factsThroughTheFold() async throws {
        let inner = LockedBox<[String]>([])
        let outer = LockedBox<[String]>([])
        let transport = StubTransport.scripted([.status(503), .status(200, body: "[1]")])
        let client = Client.scripted(
            transport,
            middleware: [
                FactsSpy(seen: outer), RetryMiddleware(.exponential(maxAttempts: 2), clock: ImmediateClock(), random: { 0 }),
                FactsSpy(seen: inner),
            ])
        let response = try await client.response(for: Request<[Int]>(.get, "items"))
        #expect(inner.value == ["1 https://api.example.com/items network", "2 https://api.example.com/items network"])
        #expect(outer.value == ["2 https://api.example.com/items network"])
        #expect(response.attempts == 2)
        #expect(response.source == .network)
        #expect(response.url.absoluteString == "https://api.example.com/items")
    }

    @Test("a middleware that answers by itself returns its own facts, and the client reports them")
    func ownFacts() async throws {
        struct Answering: Middleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
            ) async throws -> MiddlewareResponse {
                MiddlewareResponse(
                    response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]),
                    body: HTTPBody("[7]"),
                    url: try #require(URL(string: "https://cache.example.com/items")),
                    source: .cache
                )
            }
        }
        let transport = StubTransport.scripted([])
        let response = try await Client.scripted(transport, middleware: [Answering()]).response(for: Request<[Int]>(.get, "items"))
        #expect(response.value == [7])
        #expect(response.source == .cache)
        #expect(response.url.host == "cache.example.com")
        #expect(transport.requests.isEmpty)
    }

    @Test("a middleware's declared credential fields join the client's, without a cast")
    func declaredCredentialFields() async throws {
        struct TenantSecret: Middleware {
            var credentialFields: CredentialFields { CredentialFields(headerNames: [.custom], queryNames: ["tenant_key"]) }
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
            ) async throws -> MiddlewareResponse {
                try await next(request, body, context)
            }
        }
        let seen = LockedBox<[MiddlewareContext]>([])
        let client = Client.scripted(StubTransport.scripted([]), middleware: [TenantSecret(), ContextSpy(seen: seen)])
        try await client.send(Request<Void>(.get, "items"))
        let fields = try #require(seen.value.first?.credentialFields)
        #expect(fields.headerNames.contains(.custom))
        #expect(fields.headerNames.contains(.authorization))
        #expect(fields.queryNames.contains("tenant_key"))
    }
}
