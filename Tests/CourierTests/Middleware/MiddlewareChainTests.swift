import Courier
import CourierTesting
import Foundation
import OpenAPIRuntime
import TestSupport
import Testing

/// A user-written middleware: the example from ``Middleware``'s documentation, compiled here.
struct RequestIDMiddleware: Middleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        var request = request
        request.headerFields[.xRequestID] = UUID().uuidString
        return try await next(request, body, context)
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-ID")!
    static let trail = HTTPField.Name("X-Trail")!
}

/// Appends its name to `X-Trail` on the way out and records the order responses come back in.
struct TrailMiddleware: Middleware {
    let name: String
    let returns: LockedBox<[String]>

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        var request = request
        request.headerFields[.trail] = (request.headerFields[.trail].map { $0 + "," } ?? "") + name
        let result = try await next(request, body, context)
        returns.mutate { $0.append(name) }
        return result
    }
}

@Suite("The middleware chain: order, context, and compatibility with OpenAPI middleware")
struct MiddlewareChainTests {
    @Test("the first middleware is outermost: requests go down the list, responses come back up")
    func order() async throws {
        let transport = StubTransport.scripted([])
        let returns = LockedBox<[String]>([])
        let client = Client.scripted(transport, middleware: ["a", "b", "c"].map { TrailMiddleware(name: $0, returns: returns) })
        try await client.send(Request<Void>(.get, "items"))
        #expect(transport.requests.first?.headerFields[.trail] == "a,b,c")
        #expect(returns.value == ["c", "b", "a"])
    }

    @Test("a user-written middleware in a few lines adds a header to every request")
    func userMiddleware() async throws {
        let transport = StubTransport.scripted([])
        let client = Client.scripted(transport, middleware: [RequestIDMiddleware()])
        try await client.send(Request<Void>(.get, "items"))
        let id = try #require(transport.requests.first?.headerFields[.xRequestID])
        #expect(UUID(uuidString: id) != nil)
    }

    @Test("the response body a middleware returns is the one decoded: read and passed on, replaced, or wrapped")
    func responseBodies() async throws {
        struct Item: Decodable, Equatable { var name: String }
        /// Reads the body, then returns it, or a body of its own, or the same bytes in a new body.
        struct BodyMiddleware: Middleware {
            enum Action { case passOn, replace, rewrap }
            let action: Action

            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
            ) async throws -> MiddlewareResponse {
                var result = try await next(request, body, context)
                let bytes = try await Data(collecting: try #require(result.body), upTo: .max)
                switch action {
                case .passOn: break
                case .replace: result.body = HTTPBody(#"{"name":"replaced"}"#)
                case .rewrap: result.body = HTTPBody(bytes)
                }
                return result
            }
        }
        let reply = ScriptedReply.status(200, body: #"{"name":"from the server"}"#)
        for (action, expected) in [(BodyMiddleware.Action.passOn, "from the server"), (.replace, "replaced"), (.rewrap, "from the server")] {
            let client = Client.scripted(StubTransport.scripted([reply]), middleware: [BodyMiddleware(action: action)])
            #expect(try await client.send(Request<Item>(.get, "item")) == Item(name: expected), "\(action)")
        }
        // Without middleware, the body read from the transport is decoded.
        let plain = Client.scripted(StubTransport.scripted([reply]), middleware: [])
        #expect(try await plain.send(Request<Item>(.get, "item")) == Item(name: "from the server"))
    }

    @Test("the context names the endpoint and says whether it wants credentials")
    func context() async throws {
        let seen = LockedBox<[MiddlewareContext]>([])
        let client = Client.scripted(StubTransport.scripted([]), middleware: [ContextSpy(seen: seen)])
        try await client.send(Request<Void>(.get, "items/\(7)").timeout(.seconds(3)))
        try await client.send(Request<Void>(.post, "login").withoutAuthentication())
        #expect(seen.value.map(\.name) == ["GET items/{}", "POST login"])
        #expect(seen.value.map(\.requiresAuthentication) == [true, false])
        #expect(seen.value.first?.timeout == .seconds(3))
        #expect(seen.value.first?.attempt == 1)
        #expect(seen.value.first?.origin.absoluteString == "https://api.example.com")
    }

    @Test("a Courier middleware works as an OpenAPI ClientMiddleware, and the other way round")
    func openAPIAdapters() async throws {
        let adapted = RequestIDMiddleware().asClientMiddleware
        let origin = try #require(URL(string: "https://api.example.com"))
        let (response, _) = try await adapted.intercept(
            HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/"),
            body: nil,
            baseURL: origin,
            operationID: "listItems"
        ) { request, _, _ in
            #expect(request.headerFields[.xRequestID] != nil)
            return (HTTPResponse(status: .noContent), nil)
        }
        #expect(response.status == .noContent)

        let transport = StubTransport.scripted([])
        let client = Client.scripted(transport, middleware: [OpenAPIMiddleware(adapted)])
        try await client.send(Request<Void>(.get, "items"))
        #expect(transport.requests.first?.headerFields[.xRequestID] != nil)
    }

    @Test("activity reports the number of requests in flight, back to zero at the end")
    func activity() async throws {
        /// Holds every request until the test lets it go.
        struct Gate: Middleware {
            let open: AsyncStream<Void>
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, context: MiddlewareContext, next: MiddlewareNext
            ) async throws -> MiddlewareResponse {
                for await _ in open { break }
                return try await next(request, body, context)
            }
        }
        let (open, opener) = AsyncStream<Void>.makeStream()
        let client = Client.scripted(StubTransport.scripted([]), middleware: [Gate(open: open)])
        var counts = client.activity.makeAsyncIterator()
        #expect(await counts.next() == 0)
        let request = Task { try await client.send(Request<Void>(.get, "items")) }
        #expect(await counts.next() == 1)
        opener.yield()
        try await request.value
        #expect(await counts.next() == 0)
    }

    @Test("upload and download progress counts every byte, with the totals")
    func progress() async throws {
        let payload = String(repeating: "x", count: 200_000)
        let client = Client.scripted(StubTransport.scripted([.status(200, body: "\"\(payload)\"")]), middleware: [])
        let reports = LockedBox<[TransferProgress]>([])
        let echoed: String = try await client.send(
            Request<String>(.post, "upload", body: .data(Data(repeating: 1, count: 150_000), contentType: "application/octet-stream"))
        ) { progress in
            reports.mutate { $0.append(progress) }
        }
        #expect(echoed.count == 200_000)
        let uploads = reports.value.filter { $0.direction == .upload }
        let downloads = reports.value.filter { $0.direction == .download }
        #expect(uploads.map(\.completedBytes) == [0, 65_536, 131_072, 150_000])
        #expect(uploads.last?.fractionCompleted == 1)
        #expect(downloads.first?.completedBytes == 0)
        #expect(downloads.last?.completedBytes == 200_002)
    }
}
