import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against sse-starlette under uvicorn: server-sent events, as the server's own record shows them", .requires(.pythonServers))
struct EventStreamInteropTests {
    struct Tick: Decodable, Equatable, Sendable {
        var n: Int
    }

    @Test("events with ids, names and JSON data arrive in order; the request asked for text/event-stream", arguments: TransportKind.allCases)
    func ticks(transport: TransportKind) async throws {
        try await withInteropServer(try await PythonEventStreamServer.start()) { sse in
            let client = Client(baseURL: BaseURL(sse.baseURL), transport: transport.make())
            var options = EventStreamOptions()
            options.reconnects = false
            var events: [ServerEvent<Tick>] = []
            for try await event in client.events(Request<Tick>(.get, "events", query: ["count": "3"]), options: options) {
                events.append(event)
            }
            #expect(events.map(\.data) == [Tick(n: 1), Tick(n: 2), Tick(n: 3)])
            #expect(events.map(\.id) == ["1", "2", "3"])
            #expect(events.allSatisfy { $0.type == "tick" })
            let request = try await sse.request { $0.path == "/events" }
            #expect(request.header("accept")?.contains("text/event-stream") == true)
            #expect(request.header("last-event-id") == nil)
        }
    }

    @Test("an event whose data spans three lines arrives as one, its lines joined by newlines", arguments: TransportKind.allCases)
    func multiline(transport: TransportKind) async throws {
        try await withInteropServer(try await PythonEventStreamServer.start()) { sse in
            let client = Client(baseURL: BaseURL(sse.baseURL), transport: transport.make())
            var options = EventStreamOptions()
            options.reconnects = false
            var events: [ServerEvent<Data>] = []
            for try await event in client.events(Request<Data>(.get, "events/multiline"), options: options) {
                events.append(event)
            }
            #expect(events.map { String(decoding: $0.data, as: UTF8.self) } == ["first line\nsecond line\nthird line"])
            #expect(events.first?.type == "poem")
        }
    }
}
