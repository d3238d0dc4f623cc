import Clocks
import Foundation
import OpenAPIRuntime
import TestSupport
import Testing

@testable import Courier

@Suite("Server-sent events: typed, reconnecting with Last-Event-ID, bounded")
struct EventStreamTests {
    struct Tick: Decodable, Equatable, Sendable {
        var n: Int
    }

    /// Answers each connection with the next scripted reply and records the `Last-Event-ID` each
    /// connection sent.
    final class EventServer: ClientTransport, Sendable {
        enum Reply: Sendable {
            case events(String, contentType: String = "text/event-stream", status: Int = 200)
            /// Sends `head` and then nothing until cancelled.
            case silent
            case failure
        }

        let replies: LockedBox<[Reply]>
        let lastEventIDs = LockedBox<[String?]>([])
        let cancelledReads = LockedBox(0)

        init(_ replies: [Reply]) { self.replies = LockedBox(replies) }

        var connections: Int { lastEventIDs.value.count }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            lastEventIDs.mutate { $0.append(request.headerFields[.lastEventID]) }
            let reply = replies.mutate { $0.isEmpty ? Reply.events("", status: 204) : $0.removeFirst() }
            switch reply {
            case .events(let text, let contentType, let status):
                return (HTTPResponse(status: .init(code: status), headerFields: [.contentType: contentType]), HTTPBody(text))
            case .silent:
                let cancelled = cancelledReads
                let (stream, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
                continuation.onTermination = { _ in cancelled.mutate { $0 += 1 } }
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), HTTPBody(stream, length: .unknown, iterationBehavior: .single))
            case .failure:
                throw URLError(.networkConnectionLost)
            }
        }
    }

    static var immediate: EventStreamOptions {
        var options = EventStreamOptions()
        options.reconnectDelay = .zero
        options.backoff = Backoff(base: .zero, maximum: .zero)
        return options
    }

    static func client(_ server: EventServer, clock: (any Clock<Duration>)? = nil) -> Client {
        Client(baseURL: "https://api.example.com", transport: OpenAPITransport(server)) { configuration in
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
        let server = EventServer([
            .events("id: 1\ndata: {\"n\":1}\n\nid: 2\ndata: {\"n\":2}\n\nid: 3\ndata: {\"n\":"),
            .failure,
            .events(": keep-alive\r\nid: 3\r\ndata: {\"n\":3}\r\n\r\n"),
            .events("", status: 204),
        ])
        let stream = Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate)
        let (events, error) = await Self.collect(stream)
        #expect(error == nil)
        #expect(events.map(\.data) == [Tick(n: 1), Tick(n: 2), Tick(n: 3)], "the half-sent third event was dropped, then resent")
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(server.lastEventIDs.value == [nil, "2", "2", "3"], "the cut-off event's id did not count")
    }

    @Test("after an empty id, a reconnection sends no Last-Event-ID")
    func clearedID() async {
        let server = EventServer([.events("id: 7\ndata: {\"n\":7}\n\nid\ndata: {\"n\":8}\n\n")])
        let (events, _) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate))
        #expect(events.map(\.id) == ["7", nil])
        #expect(server.lastEventIDs.value == [nil, nil])
    }

    @Test("a 204 ends the stream without reconnecting")
    func noContent() async {
        let server = EventServer([.events("", status: 204), .events("data: {\"n\":1}\n\n")])
        let (events, error) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate))
        #expect(events.isEmpty && error == nil)
        #expect(server.connections == 1)
    }

    @Test("a wrong Content-Type or an error status fails the stream without reconnecting")
    func refusals() async {
        for (reply, kind) in [
            (EventServer.Reply.events("{}", contentType: "application/json"), CourierError.Kind.invalidResponse),
            (.events("{}", contentType: "application/json", status: 500), .serverError),
            (.events("{}", contentType: "application/json", status: 401), .unauthorized),
        ] {
            let server = EventServer([reply, .events("data: {\"n\":1}\n\n")])
            let (events, error) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: Self.immediate))
            #expect(events.isEmpty)
            #expect(error?.kind == kind)
            #expect(server.connections == 1)
        }
    }

    @Test("a POST is not reconnected; an event over the limit is refused")
    func noReconnectAndOversize() async {
        let post = EventServer([.events("data: {\"n\":1}\n\n"), .events("data: {\"n\":2}\n\n")])
        let (events, _) = await Self.collect(Self.client(post).events(Request<Tick>(.post, "ticker"), options: Self.immediate))
        #expect(events.map(\.data) == [Tick(n: 1)])
        #expect(post.connections == 1)

        var small = Self.immediate
        small.maximumEventSize = 32
        let big = EventServer([.events("data: {\"n\":\(String(repeating: "1", count: 64))}\n\n")])
        let (_, error) = await Self.collect(Self.client(big).events(Request<Tick>(.get, "ticker"), options: small))
        #expect(error?.kind == .streamElementTooLarge)
    }

    @Test("reconnection gives up after the set number of failures in a row")
    func givesUp() async {
        var options = Self.immediate
        options.maximumReconnectAttempts = 3
        let server = EventServer(Array(repeating: .failure, count: 10))
        let (_, error) = await Self.collect(Self.client(server).events(Request<Tick>(.get, "ticker"), options: options))
        #expect(error?.kind == .notConnected)
        #expect(server.connections == 4, "the first connection and three reconnections")
    }

    @Test("retry: sets the delay before the next connection, on the client's clock")
    func retryDelay() async {
        let clock = TestClock()
        var options = Self.immediate
        options.reconnectDelay = .seconds(1)
        let server = EventServer([.events("retry: 5000\ndata: {\"n\":1}\n\n"), .events("data: {\"n\":2}\n\n")])
        let stream = Self.client(server, clock: clock).events(Request<Tick>(.get, "ticker"), options: options)
        let done = LockedBox(false)
        let reader = Task {
            defer { done.mutate { $0 = true } }
            return await Self.collect(stream)
        }
        while server.connections < 1 { await Task.yield() }
        await clock.advance(by: .milliseconds(4900))
        for _ in 0..<50 { await Task.yield() }
        #expect(server.connections == 1, "not before the 5 s the server asked for")
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
        let server = EventServer([.silent, .events("data: {\"n\":1}\n\n")])
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
        #expect(server.cancelledReads.value == 1, "the silent connection's body was given up")
    }
}
