@testable import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("Exchange timings and HTTP versions are computed as documented")
struct ExchangeTimingsComputationTests {
    @Test("versions are named as HAR writes them, from a head's numbers or an ALPN identifier")
    func versions() {
        #expect(HTTPProtocolVersion(major: 1, minor: 1) == .http1_1)
        #expect(HTTPProtocolVersion(major: 2, minor: 0) == .http2)
        #expect(HTTPProtocolVersion(major: 9, minor: 9) == .unknown)
        #expect(HTTPProtocolVersion(protocolName: "h2") == .http2)
        #expect(HTTPProtocolVersion(protocolName: "HTTP/1.1") == .http1_1)
        #expect(HTTPProtocolVersion(protocolName: "h3") == .http3)
        #expect(HTTPProtocolVersion(protocolName: nil) == .unknown)
        #expect([HTTPProtocolVersion.http1_1, .http2, .http3, .unknown].map(\.description) == ["HTTP/1.1", "HTTP/2", "HTTP/3", "unknown"])
    }

    @Test("stages measured out of order are kept in order: sent ≤ first byte ≤ end")
    func ordered() {
        let stopwatch = ExchangeStopwatch()
        let start = stopwatch.start
        let timings = stopwatch.timings(sent: start + .milliseconds(30), firstByte: start + .milliseconds(20), end: start + .milliseconds(10))
        #expect(timings.requestSent == .milliseconds(30))
        #expect(timings.responseStarted == .milliseconds(30))
        #expect(timings.responseEnded == .milliseconds(30))
        let streaming = stopwatch.timings(sent: nil, firstByte: start + .milliseconds(5), end: nil)
        #expect(streaming.requestSent == nil && streaming.responseStarted == .milliseconds(5) && streaming.responseEnded == nil)
    }

    @Test("task metrics add the protocol, the reused connection and the connection's phases")
    func metrics() {
        let stopwatch = ExchangeStopwatch()
        let start = stopwatch.startDate
        let transaction = TransactionTimeline(
            protocolName: "h2",
            isReusedConnection: false,
            domainLookup: DateInterval(start: start, duration: 0.002),
            connect: DateInterval(start: start.addingTimeInterval(0.002), duration: 0.010),
            secureConnection: DateInterval(start: start.addingTimeInterval(0.004), duration: 0.008),
            requestEnd: start.addingTimeInterval(0.013),
            responseStart: start.addingTimeInterval(0.040),
            responseEnd: start.addingTimeInterval(0.050)
        )
        let observed = TaskObservation(firstByte: stopwatch.start + .milliseconds(41), end: stopwatch.start + .milliseconds(52), transaction: transaction)
        let (version, timings) = observed.report(from: stopwatch)
        #expect(version == .http2)
        #expect(timings.reusedConnection == false)
        #expect(timings.domainLookup.map { abs(($0 - .milliseconds(2)) / .milliseconds(1)) < 0.01 } == true)
        #expect(timings.connect.map { abs(($0 - .milliseconds(10)) / .milliseconds(1)) < 0.01 } == true)
        #expect(timings.secureConnection.map { abs(($0 - .milliseconds(8)) / .milliseconds(1)) < 0.01 } == true)
        let sent = timings.requestSent ?? .zero
        let first = timings.responseStarted ?? .zero
        let end = timings.responseEnded ?? .zero
        #expect(sent > .zero && sent <= first && first <= end)
        let without = TaskObservation(firstByte: stopwatch.start + .milliseconds(1), end: stopwatch.start + .milliseconds(2), transaction: nil)
        let (unknown, measured) = without.report(from: stopwatch)
        #expect(unknown == .unknown && measured.reusedConnection == nil && measured.responseEnded == .milliseconds(2))
    }

    @Test("a client's response carries its transport's version and timings; a cache's carries none")
    func throughTheClient() async throws {
        let transport = StubTransport.scripted([.status(200, headers: [.cacheControl: "max-age=600"], body: #"{"ok":true}"#)])
        let client = Client.scripted(transport, middleware: [CachingMiddleware(ResponseCache())])
        let first = try await client.response(for: Request<JSONValue>(.get, "items"))
        let timings = try #require(first.timings)
        #expect(timings.responseStarted != nil && timings.responseEnded != nil)
        let cached = try await client.response(for: Request<JSONValue>(.get, "items"))
        #expect(cached.source == .cache)
        #expect(cached.timings == nil && cached.httpVersion == .unknown)
    }
}
