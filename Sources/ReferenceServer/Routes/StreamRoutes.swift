import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Streams as real servers send them: a server-sent-event ticker that resumes from
/// `Last-Event-ID`, an endless ticker, and a JSON Lines export generated as it is written.
enum StreamRoutes {
    /// The most events or lines one request may ask for.
    static let largestCount = 50_000_000

    static func register(on router: Router<ReferenceRequestContext>, ledger: StreamLedger) {
        // `GET /events/ticker?count=N&disconnect_after=K&retry=MS&end=204`: events `{"n":i}` with
        // ids 1…N, resuming after `Last-Event-ID`; each connection ends after K events (a dropped
        // connection, for the client to resume); once every event is sent, a 204 (with `end=204`)
        // or an empty stream.
        router.get("events/ticker") { request, _ -> Response in
            let lastID = request.headers[HTTPField.Name("Last-Event-ID")!]
            await ledger.opened(lastEventID: lastID)
            let count = min(request.queryInt("count") ?? 10, largestCount)
            let perConnection = request.queryInt("disconnect_after") ?? count
            let first = (lastID.flatMap { Int($0) } ?? 0) + 1
            if first > count, request.uri.queryParameters["end"] == "204" {
                return Response(status: .noContent)
            }
            let retry = request.queryInt("retry")
            let body = ResponseBody { writer in
                var text = ": ticker\n"
                if let retry { text += "retry: \(retry)\n\n" }
                try await writer.write(ByteBuffer(string: text))
                for n in first..<min(count + 1, first + perConnection) {
                    // CRLF line ends and an event split across writes, as some servers send them.
                    try await writer.write(ByteBuffer(string: "id: \(n)\r\nevent: tick\r\ndata: {\"n\":"))
                    try await writer.write(ByteBuffer(string: "\(n)}\r\n\r\n"))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
        }

        // `GET /events/endless`: an event every 20 ms until the client goes away, which the
        // ledger counts.
        router.get("events/endless") { request, _ -> Response in
            await ledger.opened(lastEventID: request.headers[HTTPField.Name("Last-Event-ID")!])
            let body = ResponseBody { writer in
                var n = 0
                do {
                    while true {
                        n += 1
                        try await writer.write(ByteBuffer(string: "id: \(n)\ndata: {\"n\":\(n)}\n\n"))
                        try await Task.sleep(for: .milliseconds(20))
                    }
                } catch {
                    await ledger.clientClosed()
                    throw error
                }
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: body)
        }

        // `GET /events/stats`: what the ledger saw.
        router.get("events/stats") { _, _ -> Response in
            struct Stats: Encodable {
                var lastEventIDs: [String?]
                var closedByClient: Int
            }
            return JSONResponse.make(Stats(lastEventIDs: await ledger.lastEventIDs, closedByClient: await ledger.closedByClient))
        }

        // `GET /export/lines?count=N`: N records `{"id":i,"title":"Record i"}`, one per line,
        // written in batches as they are made, never held whole.
        router.get("export/lines") { request, _ -> Response in
            let count = min(request.queryInt("count") ?? 100, largestCount)
            let body = ResponseBody { writer in
                var buffer = ByteBuffer()
                for id in 1...max(count, 1) where count > 0 {
                    buffer.writeString("{\"id\":\(id),\"title\":\"Record \(id)\"}\n")
                    if buffer.readableBytes >= 64 * 1024 {
                        try await writer.write(buffer)
                        buffer.clear()
                    }
                }
                try await writer.write(buffer)
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/jsonl"], body: body)
        }
    }
}
