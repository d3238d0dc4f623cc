import Courier
import Foundation
import Synchronization

/// The record the benchmark endpoints serve (182 bytes of JSON).
struct BenchRecord: Codable, Sendable {
    var id: Int
    var email: String
    var name: String
    var username: String
    var active: Bool
    var created_at: String
    var score: Double
    var tags: [String]
}

/// One benchmark workload: what is requested and what it decodes to.
enum Workload: String, CaseIterable, Sendable {
    case smallJSON = "get_small_json"
    case list = "get_10kb_list"
    case postJSON = "post_10kb_json"

    var path: String {
        switch self {
        case .smallJSON: "bench/small"
        case .list: "bench/list"
        case .postJSON: "bench/echo"
        }
    }

    /// The query of the request numbered `number`: every request of a run is distinct, on both
    /// sides, so that Courier's coalescing of identical `GET`s in flight never answers several
    /// requests with one exchange and the figures compare one request with one request.
    func query(number: Int) -> [URLQueryItem] {
        let count = self == .list ? [URLQueryItem(name: "count", value: "100")] : []
        return count + [URLQueryItem(name: "n", value: String(number))]
    }

    /// The number of the next request of the run.
    static func nextNumber() -> Int {
        numbers.add(1, ordering: .relaxed).newValue
    }

    private static let numbers = Atomic<Int>(0)

    /// The 10 KB body of the POST workload: 56 records.
    static let postBody: Data = {
        let records = (0..<56).map {
            BenchRecord(
                id: $0, email: "a\($0)@example.com", name: "Ada Lovelace", username: "ada", active: true,
                created_at: "2026-01-01T08:30:00Z", score: 98.5, tags: ["admin", "beta", "swift"])
        }
        return (try? JSONEncoder().encode(records)) ?? Data()
    }()

    /// The same call as a Courier endpoint; the response is decoded and discarded.
    func courierCall(_ client: Client) async throws {
        let number = Self.nextNumber()
        switch self {
        case .smallJSON:
            _ = try await client.send(Request<BenchRecord>(.get, "bench/small", query: ["n": number]))
        case .list:
            _ = try await client.send(Request<[BenchRecord]>(.get, "bench/list", query: ["count": 100, "n": number]))
        case .postJSON:
            _ = try await client.send(
                Request<[BenchRecord]>(.post, "bench/echo", query: ["n": number], body: .data(Self.postBody, contentType: "application/json"))
            )
        }
    }

    /// Decodes a raw response body the way a careful hand-written client would.
    func decode(_ data: Data, with decoder: JSONDecoder) throws {
        switch self {
        case .smallJSON: _ = try decoder.decode(BenchRecord.self, from: data)
        case .list, .postJSON: _ = try decoder.decode([BenchRecord].self, from: data)
        }
    }
}
