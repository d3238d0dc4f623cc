@testable import Courier
import Foundation
import ReferenceServer
import TestSupport
import Testing

/// URLSession on Linux delivers a body as fast as the network does, however slowly it is read;
/// what the reader has not reached waits in memory only up to a limit, the rest on disk. Pushing
/// 23 MB through URLSession's one process-wide queue as fast as it goes, the suite runs apart from
/// the tests that bound elapsed time.
@Suite("A slowly read stream over URLSession holds a bounded amount in memory", .heavyLoad)
struct SpooledStreamTests {
    struct Stats: Decodable, Sendable {
        var closedByClient: Int
    }

    /// Courier's URLSession transport with `memory` as its streamed bodies' memory limit.
    static func transport(memory: Int, gauge: SpooledBody.Gauge) -> SessionTransport {
        var transport = SessionTransport()
        transport.streamedBodyLimits = SpooledBody.Limits(memory: memory, gauge: gauge)
        return transport
    }

    @Test("a reader that falls 8 MB behind a 23 MB export holds at most 256 KiB in memory and gets every line in order")
    func slowReader() async throws {
        let gauge = SpooledBody.Gauge()
        let count = 600_000
        try await withBackends(.urlSession) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: Self.transport(memory: 256 << 10, gauge: gauge))
            let stream = try await client.stream(Request<Data>(.get, "export/lines", query: ["count": count]))
            var iterator = stream.makeAsyncIterator()
            var received: [UInt8] = []
            if let first = try await iterator.next() { received += first }
            // The reader falls behind: it takes nothing more until 8 MB wait for it.
            #expect(await eventually { gauge.spilledBytes >= 8 << 20 })
            while let chunk = try await iterator.next() { received += chunk }

            let expected = (1...count).map { "{\"id\":\($0),\"title\":\"Record \($0)\"}\n" }.joined()
            #expect(received == Array(expected.utf8))
            #expect(gauge.peakMemoryBytes <= 256 << 10)
        }
    }

    @Test("a reader that stops while its unread part waits in memory and on disk closes the connection")
    func stopped() async throws {
        let gauge = SpooledBody.Gauge()
        try await withBackends(.urlSession) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: Self.transport(memory: 64, gauge: gauge))
            let reader = Task {
                let stream = try await client.stream(Request<Data>(.get, "events/endless"))
                var iterator = stream.makeAsyncIterator()
                _ = try await iterator.next()
                // A reader busy elsewhere, cancelled there.
                try await Task.sleep(for: .seconds(3600))
                _ = try await iterator.next()
            }
            #expect(await eventually { gauge.spilledBytes > 0 })
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            let closed = try await eventually {
                try await client.send(Request<Stats>(.get, "events/stats")).closedByClient == 1
            }
            #expect(closed, "the server saw the connection close")
            #expect(gauge.peakMemoryBytes <= 64)
        }
    }

    @Test("a reader cancelled while it waits for more closes the connection")
    func cancelledWhileWaiting() async throws {
        let gauge = SpooledBody.Gauge()
        try await withBackends(.urlSession) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: Self.transport(memory: 64, gauge: gauge))
            let started = AsyncStream.makeStream(of: Void.self)
            let reader = Task {
                let stream = try await client.stream(Request<Data>(.get, "events/endless"))
                started.continuation.yield()
                var read = 0
                for try await chunk in stream { read += chunk.count }
                return read
            }
            for await _ in started.stream { break }
            reader.cancel()
            _ = await reader.result
            let closed = try await eventually {
                try await client.send(Request<Stats>(.get, "events/stats")).closedByClient == 1
            }
            #expect(closed, "the server saw the connection close")
        }
    }
}
