import Foundation
import Hummingbird
import NIOCore

/// Fixed payloads for `courier-bench`: `/bench/small` (a 182-byte record), `/bench/list?count=N`
/// (N records, 100 ≈ 10.7 KB; `max_age=S` adds `Cache-Control: max-age=S`), `POST /bench/echo` (the JSON body back). Prepared once, so the
/// server's own cost stays small next to the client's.
package enum BenchRoutes {
    /// One record as the server writes it.
    package struct Record: Codable, Sendable {
        var id: Int
        var email: String
        var name: String
        var username: String
        var active: Bool
        var created_at: String
        var score: Double
        var tags: [String]
    }

    /// The record `/bench/list` serves at position `id`.
    package static func record(_ id: Int) -> Record {
        Record(
            id: id,
            email: "ada.lovelace\(id % 10)@example.com",
            name: "Ada Lovelace",
            username: "ada\(id % 10)",
            active: id % 2 == 0,
            created_at: "2026-01-0\(id % 9 + 1)T08:30:00Z",
            score: 98.5,
            tags: ["admin", "beta", "swift"]
        )
    }

    static func register(on router: Router<ReferenceRequestContext>) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let small = ByteBuffer(bytes: (try? encoder.encode(record(1))) ?? Data())
        let lists = LockedLists(encoder: encoder)
        let headers: HTTPFields = [.contentType: "application/json"]

        router.get("bench/small") { _, _ in
            Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: small))
        }
        router.get("bench/list") { request, _ in
            let count = min(max(request.queryInt("count") ?? 100, 0), 10_000)
            var fields = headers
            if let maxAge = request.queryInt("max_age") { fields[.cacheControl] = "max-age=\(maxAge)" }
            return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: lists.list(count: count)))
        }
        router.post("bench/echo") { request, _ in
            let body = try await request.body.collect(upTo: 16 * 1024 * 1024)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
    }

    /// Encoded lists by count, built on first use.
    final class LockedLists: @unchecked Sendable {
        // @unchecked: `cache` is only touched under `lock`.
        private let lock = NSLock()
        private var cache: [Int: ByteBuffer] = [:]
        private let encoder: JSONEncoder

        init(encoder: JSONEncoder) {
            self.encoder = encoder
        }

        func list(count: Int) -> ByteBuffer {
            lock.lock()
            defer { lock.unlock() }
            if let cached = cache[count] { return cached }
            let buffer = ByteBuffer(bytes: (try? encoder.encode((0..<count).map(BenchRoutes.record))) ?? Data())
            cache[count] = buffer
            return buffer
        }
    }
}
