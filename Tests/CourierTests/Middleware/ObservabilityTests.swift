@testable import Courier
import CourierTesting
import Foundation
import InMemoryTracing
import Logging
import MetricsTestKit
import TestSupport
import Testing
import Tracing

@Suite("Logging, metrics, tracing and reachability")
struct ObservabilityTests {
    @Test("redaction hides credential headers and secret-looking query, form and JSON fields")
    func redaction() throws {
        let redaction = Redaction.default
        let fields: HTTPFields = [.authorization: "Bearer abc", .cookie: "sid=1", .setCookie: "sid=2", .accept: "application/json"]
        let redacted = redaction.redact(fields)
        #expect(redacted[.authorization] == "<redacted>")
        #expect(redacted[.cookie] == "<redacted>")
        #expect(redacted[.setCookie] == "<redacted>")
        #expect(redacted[.accept] == "application/json")
        #expect(redaction.redact(target: "/3/movie?page=2&api_key=K&access_token=T") == "/3/movie?page=2&api_key=<redacted>&access_token=<redacted>")
        #expect(redaction.redact(formEncoded: "user=ada&password=hunter2") == "user=ada&password=<redacted>")
        let json = Data(#"{"email":"ada@example.com","password":"p","nested":{"refresh_token":"r","list":[{"client_secret":"s"}]}}"#.utf8)
        let text = redaction.redact(body: json, contentType: "application/json")
        #expect(text == #"{"email":"ada@example.com","nested":{"list":[{"client_secret":"<redacted>"}],"refresh_token":"<redacted>"},"password":"<redacted>"}"#)
        #expect(redaction.redact(body: Data([0, 1, 2]), contentType: "image/png") == "<3 bytes>")
    }

    @Test("one line per exchange with method, URL, status, time, bytes and attempt; cURL at debug; no secret anywhere")
    func loggingLines() async throws {
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "test") { _ in LogCapture(lines: lines) }
        logger.logLevel = .debug
        let transport = StubTransport.scripted([.status(200, headers: [.setCookie: "session=cookie-secret"], body: #"{"ok":true}"#)])
        let client = Client(baseURL: "https://api.example.com", transport: transport) {
            $0.middleware = [LoggingMiddleware(logger: logger)]
            $0.commonParameters.query["api_key"] = "key-secret"
            $0.commonParameters.headerFields[.authorization] = "Bearer token-secret"
            $0.commonParameters.headerFields[.cookie] = "sid=cookie-secret"
        }
        let _: JSONValue = try await client.send(Request(.post, "login", body: .json(["email": "ada@example.com", "password": "password-secret"])))
        let log = lines.value
        #expect(log.count == 2)
        #expect(log.first?.hasPrefix("debug: curl -X POST 'https://api.example.com/login?api_key=<redacted>'") == true)
        #expect(log.first?.contains(#""password":"<redacted>""#) == true)
        #expect(log.last?.hasPrefix("info: POST https://api.example.com/login?api_key=<redacted> → 200 in ") == true)
        #expect(log.last?.hasSuffix("ms, 11 bytes, attempt 1") == true)
        for line in log {
            #expect(!line.contains("secret"), "\(line)")
        }
    }

    @Test("failures are logged at warning with their kind")
    func loggingFailures() async throws {
        let lines = LockedBox<[String]>([])
        var logger = Logger(label: "test") { _ in LogCapture(lines: lines) }
        logger.logLevel = .info
        let client = Client(baseURL: "https://api.example.com", transport: StubTransport.scripted([.failure(URLError(.notConnectedToInternet))])) {
            $0.middleware = [LoggingMiddleware(logger: logger)]
        }
        _ = await capture { try await client.send(Request<Void>(.get, "items")) }
        #expect(lines.value.count == 1)
        #expect(lines.value.first?.hasPrefix("warning: GET https://api.example.com/items failed in ") == true)
        #expect(lines.value.first?.contains("notConnected") == true)
    }

    @Test("metrics count requests and time them per endpoint and status class")
    func metrics() async throws {
        let metrics = TestMetrics()
        let transport = StubTransport.scripted([.status(200), .status(503), .failure(URLError(.timedOut))])
        let client = Client.scripted(transport, middleware: [MetricsMiddleware(factory: metrics)])
        for _ in 0..<3 { _ = await capture { try await client.send(Request<Void>(.get, "items").named("listItems")) } }
        #expect(metrics.counterTotal(label: "courier_requests_total", dimensions: [("endpoint", "listItems"), ("status", "2xx"), ("http_version", "unknown")]) == 1)
        #expect(metrics.counterTotal(label: "courier_requests_total", dimensions: [("endpoint", "listItems"), ("status", "5xx"), ("http_version", "unknown")]) == 1)
        #expect(metrics.counterTotal(label: "courier_requests_total", dimensions: [("endpoint", "listItems"), ("status", "error"), ("kind", "timedOut")]) == 1)
        let timer = try metrics.expectTimer("courier_request_duration", [("endpoint", "listItems"), ("status", "2xx"), ("http_version", "unknown")])
        #expect(timer.values.count == 1)
    }

    @Test("each exchange is a client span whose context travels in the request's header fields")
    func tracing() async throws {
        let tracer = InMemoryTracer()
        let transport = StubTransport.scripted([.status(503)])
        let client = Client.scripted(transport, middleware: [TracingMiddleware(tracer: tracer)])
        _ = await capture { try await client.send(Request<Void>(.get, "items/7").named("item")) }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "item")
        #expect(span.kind == .client)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 503)
        #expect(span.status?.code == .error)
        let sent = try #require(transport.requests.first)
        let traceID = try #require(sent.headerFields[HTTPField.Name(InMemoryTracer.traceIDKey)!])
        #expect(traceID == span.spanContext.traceID)
    }

    @Test("offline, requests fail at once as notConnected without reaching the transport; loopback is exempt")
    func reachability() async throws {
        struct Offline: ConnectivityMonitor {
            func isConnected() async -> Bool { false }
        }
        let transport = StubTransport.scripted([])
        let client = Client.scripted(transport, middleware: [ReachabilityMiddleware(monitor: Offline())])
        let error = await #expect(throws: CourierError.self) { try await client.send(Request<Void>(.get, "items")) }
        #expect(error?.kind == .notConnected)
        #expect(transport.requests.isEmpty)
        for authority in ["localhost:8080", "127.0.0.1", "127.0.0.1:9", "[::1]:80", "api.localhost"] {
            #expect(ReachabilityMiddleware.isLoopback(authority), "\(authority)")
        }
        for authority in ["example.com", "127.example.com:80", "[2001:db8::1]:443"] {
            #expect(!ReachabilityMiddleware.isLoopback(authority), "\(authority)")
        }
        _ = await InterfaceConnectivityMonitor().isConnected()  // must not crash on this machine's interfaces
    }
}
