import Courier
import ExampleAPIs
import Foundation

extension AppFlow {
    /// Live events across a forced reconnect, with the ids continuing; then every popular movie,
    /// page by page.
    func showStreamsAndPages(_ movies: MovieService) async {
        transcript.heading("Live events and every popular movie, page by page")
        struct Tick: Decodable, Sendable { var n: Int }
        let client = Client(baseURL: rootURL, transport: transport)
        var options = EventStreamOptions()
        options.reconnectDelay = .milliseconds(50)
        do {
            // The server drops the connection after every 4 events; the stream reconnects with
            // Last-Event-ID and resumes where it stopped.
            let ticker = Request<Tick>(.get, "events/ticker", query: ["count": 10, "disconnect_after": 4, "end": "204"])
            var ids: [String] = []
            for try await event in client.events(ticker, options: options) {
                ids.append(event.id ?? "-")
            }
            transcript.check(
                ids == (1...10).map { String($0) },
                "10 live events across 2 forced reconnects, ids continuing: \(ids.joined(separator: " "))"
            )
            var count = 0
            var seen = Set<Int>()
            for try await movie in movies.allPopular() {
                count += 1
                seen.insert(movie.id)
            }
            transcript.check(count > 0 && seen.count == count, "all popular movies: \(count), each once, fetched a page at a time through Link")
        } catch {
            transcript.check(false, "streams failed: \(error.localizedDescription)")
        }
    }
}
