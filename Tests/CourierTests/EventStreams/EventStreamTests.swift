import Clocks
import CourierTesting
import Foundation
import TestSupport
import Testing

@testable import Courier

@Suite("Server-sent events: typed, reconnecting with Last-Event-ID, bounded")
struct EventStreamTests {
    struct Tick: Decodable, Equatable, Sendable {
        var n: Int
    }

    /// A server answering each connection with the next of `replies`, then with 204s; the stub
    /// records each request and the `Last-Event-ID` it sent.
    static func server(_ replies: [StubResponse]) -> StubTransport {
        let stub = StubTransport()
        stub.answer(.any, with: replies + [events("", status: .noContent)])
        return stub
    }

    /// A connection whose body is `text`, after which the server ends it.
    static func events(_ text: String, contentType: String = "text/event-stream", status: HTTPResponse.Status = .ok) -> StubResponse {
        .text(text, status: status, contentType: contentType)
    }

    /// The `Last-Event-ID` each connection to `server` sent, in order.
    static func lastEventIDs(_ server: StubTransport) -> [String?] {
        server.requests.map { $0.headerFields[.lastEventID] }
    }

    /// A connection that fails before its response.
    static let dropped = StubResponse.failure(.error(URLError(.networkConnectionLost)))

    static var immediate: EventStreamOptions {
        var options = EventStreamOptions()
        options.reconnectDelay = .zero
        options.backoff = Backoff(base: .zero, maximum: .zero)
        return options
    }

    static func client(_ server: StubTransport, clock: (any Clock<Duration>)? = nil) -> Client {
        Client(baseURL: "https://api.example.com", transport: server) { configuration in
            if let clock { configuration.clock = clock }
        }
    }

    static func collect<P>(_ stream: EventStream<P>) async -> ([ServerEvent<P>], CourierError?) {
        var events: [ServerEvent<P>] = []
        do {
            for try await event in stream { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error)
        }
    }

    @Test("events arrive in order across dropped connections, each reconnection sending the last ID")
    func reconnectsWithLastEventID() async {
        let server = Self.server([
            Self.events("id: 1\ndata: {\"n\":1}\n\nid: 2\ndata: {\"n\":2}\n\nid: 3\ndata: {\"n\":"),
            Self.dropped,
            Self.events(": keep-alive\r\nid: 3\r\ndata: {\"n\":3}\r\n\r\n"),
            Self.events("", status: .noContent),
        ])
        let stream = Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate)
        let (events, error) = await Self.collect(stream)
        #expect(error == nil)
        #expect(events.map(\.data) == [Tick(n: 1), Tick(n: 2), Tick(n: 3)], "the half-sent third event was dropped, then resent")
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(Self.lastEventIDs(server) == [nil, "2", "2", "3"], "the cut-off event's id did not count")
    }

    @Test("after an empty id, a reconnection sends no Last-Event-ID")
    func clearedID() async {
        let server = Self.server([Self.events("id: 7\ndata: {\"n\":7}\n\nid\ndata: {\"n\":8}\n\n")])
        let (events, _) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate))
        #expect(events.map(\.id) == ["7", nil])
        #expect(Self.lastEventIDs(server) == [nil, nil])
    }

    @Test("a 204 ends the stream without reconnecting")
    func noContent() async {
        let server = Self.server([Self.events("", status: .noContent), Self.events("data: {\"n\":1}\n\n")])
        let (events, error) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate))
        #expect(events.isEmpty && error == nil)
        #expect(server.requests.count == 1)
    }

    @Test("a wrong Content-Type or an error status fails the stream without reconnecting")
    func refusals() async {
        for (reply, kind) in [
            (Self.events("{}", contentType: "application/json"), CourierError.Kind.invalidResponse),
            (Self.events("{}", contentType: "application/json", status: .internalServerError), .serverError),
            (Self.events("{}", contentType: "application/json", status: .unauthorized), .unauthorized),
        ] {
            let server = Self.server([reply, Self.events("data: {\"n\":1}\n\n")])
            let (events, error) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate))
            #expect(events.isEmpty)
            #expect(error?.kind == kind)
            #expect(server.requests.count == 1)
        }
    }

    @Test("a POST is not reconnected; an event over the limit is refused")
    func noReconnectAndOversize() async {
        let post = Self.server([Self.events("data: {\"n\":1}\n\n"), Self.events("data: {\"n\":2}\n\n")])
        let (events, _) = await Self.collect(Self.client(post).events(Request<Tick>(.post, "ticker"), options: Self.immediate))
        #expect(events.map(\.data) == [Tick(n: 1)])
        #expect(post.requests.count == 1)

        var small = Self.immediate
        small.maximumEventSize = 32
        let big = Self.server([Self.events("data: {\"n\":\(String(repeating: "1", count: 64))}\n\n")])
        let (_, error) = await Self.collect(Self.client(big).events(Request<Tick>(.get, "ticker"), options: small))
        #expect(error?.kind == .streamElementTooLarge)
    }

    @Test("reconnection gives up after the set number of failures in a row")
    func givesUp() async {
        var options = Self.immediate
        options.maximumReconnectAttempts = 3
        let server = Self.server(Array(repeating: Self.dropped, count: 10))
        let (_, error) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: options))
        #expect(error?.kind == .notConnected)
        #expect(server.requests.count == 4, "the first connection and three reconnections")
    }

    @Test("retry: sets the delay before the next connection, on the client's clock")
    func retryDelay() async {
        let clock = TestClock()
        var options = Self.immediate
        options.reconnectDelay = .seconds(1)
        let server = Self.server([Self.events("retry: 5000\ndata: {\"n\":1}\n\n"), Self.events("data: {\"n\":2}\n\n")])
        let stream = Self.client(server, clock: clock).events(Request<Tick>(.get, "ticker"), options: options)
        let done = LockedBox(false)
        let reader = Task {
            defer { done.mutate { $0 = true } }
            return await Self.collect(stream)
        }
        while server.requests.isEmpty { await Task.yield() }
        await clock.advance(by: .milliseconds(4900))
        for _ in 0..<50 { await Task.yield() }
        #expect(server.requests.count == 1, "not before the 5 s the server asked for")
        // The second connection, then a third that the server ends with a 204.
        await drive(clock) { done.value }
        let (events, _) = await reader.value
        #expect(events.map(\.data) == [Tick(n: 1), Tick(n: 2)])
        #expect(events.first?.retry == .seconds(5))
    }

    @Test("a connection silent past the idle timeout is closed and reconnected")
    func idleTimeout() async {
        let clock = TestClock()
        var options = Self.immediate
        options.idleTimeout = .seconds(30)
        // A connection that sends its head, then nothing until it is closed.
        let silence = StubGate()
        let server = Self.server([Self.events("").keptOpen(until: silence), Self.events("data: {\"n\":1}\n\n")])
        let stream = Self.client(server, clock: clock).events(Request<Tick>(.get, "ticker"), options: options)
        let done = LockedBox(false)
        let reader = Task {
            defer { done.mutate { $0 = true } }
            return await Self.collect(stream)
        }
        await drive(clock) { done.value }
        let (events, error) = await reader.value
        #expect(error == nil)
        #expect(events.map(\.data) == [Tick(n: 1)])
        #expect(silence.cancelledCount == 1, "the silent connection's body was given up")
    }
}
