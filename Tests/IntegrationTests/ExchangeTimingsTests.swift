import Courier
import Foundation
import InMemoryTracing
import Logging
import ReferenceServer
import TestSupport
import Testing
import Tracing

@Suite("A response names the HTTP version that carried it and when each stage of its exchange happened")
struct ExchangeTimingsTests {
    /// The version each transport reports over the reference server's plain HTTP/1.1 listener:
    /// AsyncHTTPClient reads it from the head; URLSession only through task metrics, which
    /// swift-corelibs-foundation never delivers.
    static func expectedVersion(_ transport: TransportKind) -> HTTPProtocolVersion {
        switch transport {
        case .urlSession:
            #if canImport(Darwin)
            .http1_1
            #else
            .unknown
            #endif
        #if AsyncHTTPClient
        case .asyncHTTPClient: .http1_1
        #endif
        }
    }

    /// The stages are present where promised and in order: sent ≤ first byte ≤ end.
    static func expectOrdered(_ timings: ExchangeTimings?, between before: Date, and after: Date, ended: Bool) throws {
        let timings = try #require(timings)
        #expect(timings.startDate >= before.addingTimeInterval(-1) && timings.startDate <= after.addingTimeInterval(1))
        let started = try #require(timings.responseStarted)
        #expect(started >= (timings.requestSent ?? .zero))
        if ended {
            let end = try #require(timings.responseEnded)
            #expect(end >= started)
            #expect(end <= .seconds(after.timeIntervalSince(timings.startDate) + 1))
        } else {
            #expect(timings.responseEnded == nil)
        }
    }

    @Test("a decoded response", arguments: TransportKind.allCases)
    func decoded(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let before = Date()
            let response = try await client.response(for: Request<JSONValue>(.post, "echo", body: .json(["title": "Arrival"])))
            let after = Date()
            #expect(response.httpVersion == Self.expectedVersion(transport))
            try Self.expectOrdered(response.timings, between: before, and: after, ended: true)
            #if AsyncHTTPClient
            if transport == .asyncHTTPClient {
                // AsyncHTTPClient's delegate tells when the request was written.
                #expect(response.timings?.requestSent != nil)
            }
            #endif
        }
    }

    @Test("a stream's head, its end not yet known", arguments: TransportKind.allCases)
    func streamed(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            let before = Date()
            let stream = try await client.stream(Request<Data>(.get, "files/100000"))
            let after = Date()
            #if AsyncHTTPClient
            if transport == .asyncHTTPClient { #expect(stream.httpVersion == .http1_1) }
            #endif
            try Self.expectOrdered(stream.timings, between: before, and: after, ended: false)
            var received = 0
            for try await chunk in stream { received += chunk.count }
            #expect(received == 100_000)
        }
    }

    @Test("a download, its end when the file was whole", arguments: TransportKind.allCases)
    func download(transport: TransportKind) async throws {
        try await withTemporaryDirectory { directory in
            try await withBackends(transport) { backends in
                let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
                let before = Date()
                let file = try await client.download(Request<Data>(.get, "files/300000"), to: directory.appendingPathComponent("f.bin"))
                let after = Date()
                #expect(file.byteCount == 300_000)
                #if AsyncHTTPClient
                if transport == .asyncHTTPClient { #expect(file.httpVersion == .http1_1) }
                #endif
                try Self.expectOrdered(file.timings, between: before, and: after, ended: true)
            }
        }
    }

    @Test("a second call on a kept connection is reported as reused where the transport tells", arguments: TransportKind.allCases)
    func reused(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport)
            _ = try await client.response(for: Request<JSONValue>(.get, "echo"))
            let second = try await client.response(for: Request<JSONValue>(.get, "echo"))
            let reused = second.timings?.reusedConnection
            #if canImport(Darwin)
            // Apple's task metrics say it.
            if transport == .urlSession { #expect(reused == true) }
            #endif
            // Neither AsyncHTTPClient nor swift-corelibs-foundation tells.
            #expect(reused == nil || reused == true)
        }
    }

    @Test("the log line, the span and the response agree on the version", arguments: TransportKind.allCases)
    func reported(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let lines = LockedBox<[String]>([])
            var logger = Logger(label: "courier.tests") { _ in LogCapture(lines: lines) }
            logger.logLevel = .info
            let tracer = InMemoryTracer()
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.middleware = [LoggingMiddleware(logger: logger), TracingMiddleware(tracer: tracer)]
            }
            let response = try await client.response(for: Request<JSONValue>(.get, "echo").named("echo"))
            let line = try #require(lines.value.last)
            let span = try #require(tracer.finishedSpans.first)
            let version = span.attributes["network.protocol.version"]?.toSpanAttribute()
            if response.httpVersion == .unknown {
                #expect(!line.contains("HTTP/"))
                #expect(version == nil)
            } else {
                #expect(line.hasSuffix(", \(response.httpVersion)"))
                #expect(version == "1.1".toSpanAttribute())
            }
        }
    }
}
