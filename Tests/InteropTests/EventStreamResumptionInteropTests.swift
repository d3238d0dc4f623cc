import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against sse-starlette: a stream the server ends is reconnected with Last-Event-ID, as Streams and pages describes", .requires(.pythonServers))
struct EventStreamResumptionInteropTests {
    @Test("after the server ends the body, the stream reconnects with Last-Event-ID and loses no event", arguments: TransportKind.allCases)
    func reconnects(transport: TransportKind) async throws {
        try await withInteropServer(try await PythonEventStreamServer.start()) { sse in
            let client = Client(baseURL: BaseURL(sse.baseURL), transport: transport.make())
            var events: [ServerEvent<Int>] = []
            // Two events per connection; the third event needs a reconnection after the default 3-second retry.
            for try await event in client.events(Request<Int>(.get, "events/close-after", query: ["count": "2"])) {
                events.append(event)
                if events.count == 4 { break }
            }
            #expect(events.map(\.data) == [1, 2, 3, 4])
            #expect(events.map(\.id) == ["1", "2", "3", "4"])
            let resumed = try await sse.request { $0.path == "/events/close-after" && $0.header("last-event-id") == "2" }
            #expect(resumed.header("accept")?.contains("text/event-stream") == true)
            #expect(sse.requests.first { $0.path == "/events/close-after" }?.header("last-event-id") == nil)
        }
    }

    @Test("with reconnects off, a body the server ends ends the sequence without an error", arguments: TransportKind.allCases)
    func endsWithoutError(transport: TransportKind) async throws {
        try await withInteropServer(try await PythonEventStreamServer.start()) { sse in
            let client = Client(baseURL: BaseURL(sse.baseURL), transport: transport.make())
            var options = EventStreamOptions()
            options.reconnects = false
            var ids: [String?] = []
            for try await event in client.events(Request<Int>(.get, "events/close-after", query: ["count": "2"]), options: options) {
                ids.append(event.id)
            }
            #expect(ids == ["1", "2"])
            _ = try await sse.request { $0.path == "/events/close-after" }
            #expect(sse.requests.filter { $0.path == "/events/close-after" }.count == 1)
        }
    }
}
