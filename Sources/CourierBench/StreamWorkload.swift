import Courier
import ExampleAPIs
import Foundation

/// JSON Lines and server-sent events read through Courier, against the transport's raw bytes of the
/// same routes: throughput, and the client's peak memory while a large export streams by.
struct StreamWorkload {
    let baseURL: String
    let transports: [(name: String, make: () -> any Transport)]

    struct Record: Decodable, Sendable {
        var id: Int
        var title: String
    }

    struct Tick: Decodable, Sendable {
        var n: Int
    }

    /// Lines of the reference server's export in `bytes` (each record is about 40 bytes).
    static func lineCount(forBytes bytes: Int) -> Int { bytes / 40 }

    func run(exportBytes: Int, events: Int) async throws {
        output("## Streams: JSON Lines export of about \(exportBytes / 1_000_000) MB, \(events) server-sent events")
        output("| transport | workload | raw bytes MB/s | Courier | Courier rate | client peak RSS MiB (before → after) |")
        output("| --- | --- | ---: | ---: | ---: | --- |")
        for transport in transports {
            let client = Client(baseURL: BaseURL(baseURL), transport: transport.make())
            let lines = Self.lineCount(forBytes: exportBytes)
            let export = Request<Record>(.get, "export/lines", query: ["count": lines])
            let raw = try await rawBytes(client, Request<Data>(.get, "export/lines", query: ["count": lines]))
            let before = ResidentMemory.currentMebibytes()
            ResidentMemory.resetPeak()
            let started = ContinuousClock.now
            var decoded = 0
            for try await _ in client.lines(export) { decoded += 1 }
            let seconds = Self.seconds(ContinuousClock.now - started)
            let peak = ResidentMemory.peakMebibytes()
            output(
                "| \(transport.name) | JSON Lines, \(decoded) records | \(Self.format(raw.megabytesPerSecond)) | "
                    + "\(Self.format(Double(raw.bytes) / 1e6 / seconds)) MB/s | \(Self.format(Double(decoded) / seconds)) lines/s | "
                    + "\(Self.format(before)) → \(Self.format(peak)) |"
            )

            let ticker = Request<Tick>(.get, "events/ticker", query: ["count": events, "end": "204"])
            let rawEvents = try await rawBytes(client, Request<Data>(.get, "events/ticker", query: ["count": events]))
            var options = EventStreamOptions()
            options.reconnectDelay = .zero
            options.backoff = Backoff(base: .zero, maximum: .zero)
            let eventsStarted = ContinuousClock.now
            var received = 0
            for try await _ in client.events(ticker, options: options) { received += 1 }
            let eventSeconds = Self.seconds(ContinuousClock.now - eventsStarted)
            output(
                "| \(transport.name) | SSE, \(received) events | \(Self.format(rawEvents.megabytesPerSecond)) | "
                    + "\(Self.format(Double(rawEvents.bytes) / 1e6 / eventSeconds)) MB/s | "
                    + "\(Self.format(Double(received) / eventSeconds)) events/s | - |"
            )
        }
    }

    /// The body of `request` read as bytes through the same client: the transport's rate.
    private func rawBytes(_ client: Client, _ request: Request<Data>) async throws -> (bytes: Int, megabytesPerSecond: Double) {
        let started = ContinuousClock.now
        var bytes = 0
        for try await chunk in try await client.stream(request) { bytes += chunk.count }
        return (bytes, Double(bytes) / 1e6 / Self.seconds(ContinuousClock.now - started))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String(format: "%.1f", value)
    }
}
