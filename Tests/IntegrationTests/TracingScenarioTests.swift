// AsyncHTTPClient's own tracing: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import InMemoryTracing
import NIOPosix
import ReferenceServer
import Testing
import Tracing

@Suite("Spans of requests sent over AsyncHTTPClient")
struct TracingScenarioTests {
    static let apiKey = "k-3f9a1c7e5b"

    /// Sends one GET whose query carries the API key, through an `HTTPClient` with `configuration`.
    func sendWithKey(
        _ configuration: HTTPClient.Configuration,
        middleware: [any Middleware] = []
    ) async throws {
        let http = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let server = try await ReferenceServer.start(.init())
        do {
            let client = Client(baseURL: BaseURL("\(server.baseURL)/echo"), transport: .asyncHTTPClient(http)) {
                $0.commonParameters.query["api_key"] = Self.apiKey
                $0.middleware = middleware
            }
            _ = try await client.send(Request<Data>(.get, "movies/popular").named("popularMovies"))
        } catch {
            await server.stop()
            try await http.shutdown()
            throw error
        }
        await server.stop()
        try await http.shutdown()
    }

    /// Every attribute of `span`, as text.
    func attributeTexts(of span: FinishedInMemorySpan) -> [String] {
        var texts: [String] = []
        // `SpanAttributes` is not a sequence: `forEach` is its own method.
        // swift-format-ignore: ReplaceForEachWithForLoop
        span.attributes.forEach { name, value in texts.append("\(name)=\(value)") }
        return texts
    }

    /// Why `courierConfiguration()` turns AsyncHTTPClient's tracing off. Should AsyncHTTPClient
    /// stop recording the query, this fails, and the default can be looked at again.
    @Test("AsyncHTTPClient's own span records the request's query, an API key included")
    func asyncHTTPClientSpanRecordsTheQuery() async throws {
        let tracer = InMemoryTracer()
        var configuration = HTTPClient.Configuration()
        configuration.tracing.tracer = tracer
        try await sendWithKey(configuration)
        let span = try #require(tracer.finishedSpans.first)
        #expect(attributeTexts(of: span).contains { $0.contains(Self.apiKey) })
    }

    @Test("with Courier's configuration the only span is TracingMiddleware's, which names no API key")
    func courierConfigurationLeavesSpansToTheMiddleware() async throws {
        let tracer = InMemoryTracer()
        let configuration = HTTPClient.courierConfiguration()
        #expect(configuration.tracing.tracer == nil)
        try await sendWithKey(configuration, middleware: [TracingMiddleware(tracer: tracer)])
        let spans = tracer.finishedSpans
        #expect(spans.map(\.operationName) == ["popularMovies"])
        for span in spans {
            #expect(!attributeTexts(of: span).contains { $0.contains(Self.apiKey) }, "\(attributeTexts(of: span))")
        }
    }
}
#endif
