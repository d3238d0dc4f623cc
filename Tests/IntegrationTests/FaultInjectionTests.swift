import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

/// The cases run one after another: 26 servers and clients at once on two cores made the times in
/// the table measure the machine rather than the fault.
@Suite("Server faults become specific errors, and the client keeps working", .timingSensitive, .serialized)
struct FaultInjectionTests {
    /// What a row of the matrix expects.
    enum Outcome: Sendable {
        case fails(Set<CourierError.Kind>)
        case succeeds
    }

    /// One fault of the matrix: how the client is configured, what it sends, what must happen, and
    /// how long failing may take at most.
    struct Row: Sendable, CustomStringConvertible {
        var name: String
        var outcome: Outcome
        var limit: Duration
        var configure: @Sendable (inout Configuration) -> Void = { _ in }
        var send: @Sendable (Client, ReferenceBackends) async throws -> Void
        var description: String { name }

        /// A GET of `/echo/fault` carrying the fault, decoded as `Echo`.
        static func echo(
            _ name: String,
            fault: String,
            _ outcome: Outcome,
            limit: Duration = hangBound,
            configure: @escaping @Sendable (inout Configuration) -> Void = { _ in }
        ) -> Row {
            Row(name: name, outcome: outcome, limit: limit, configure: configure) { client, _ in
                _ = try await client.send(Request<Echo>(.get, "echo/fault").header(.fault, fault))
            }
        }
    }

    /// A dropped connection: the transport reports it lost, or the response incomplete.
    static let connectionLost: Set<CourierError.Kind> = [.notConnected, .invalidResponse]
    static let retrying: @Sendable (inout Configuration) -> Void = {
        $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 3, backoff: Backoff(base: .milliseconds(20))))]
    }

    static let matrix: [Row] = [
        .echo("delay past the timeout", fault: "delay=30000", .fails([.timedOut])) { $0.timeout = .seconds(1) },
        .echo("close before responding", fault: "close", .fails(connectionLost)),
        .echo("reset mid-body", fault: "reset", .fails(connectionLost)),
        .echo("body shorter than Content-Length", fault: "truncate", .fails(connectionLost)),
        .echo("malformed JSON", fault: "malformed", .fails([.decodingFailed])),
        .echo("JSON of the wrong shape", fault: "wrong-shape", .fails([.decodingFailed])),
        .echo("wrong Content-Type", fault: "wrong-content-type", .fails([.invalidResponse])),
        .echo("empty body, typed response", fault: "empty", .fails([.decodingFailed])),
        Row(name: "204 for Void", outcome: .succeeds, limit: hangBound) { client, _ in
            try await client.send(Request<Void>(.delete, "echo/item").header(.fault, "no-content"))
        },
        .echo("body over the 16 MiB default limit", fault: "huge=20000000", .fails([.responseTooLarge]), limit: hangBound + .seconds(2)),
        .echo("one byte per 100 ms past the timeout", fault: "trickle=100", .fails([.timedOut])) {
            $0.timeout = .seconds(1)
        },
        Row(name: "5xx burst", outcome: .fails([.serverError]), limit: hangBound, configure: retrying) { client, backends in
            // Five 503s in a row: three attempts fail, the error is the server's; the next call
            // meets the burst's last two failures and then its end.
            let burst = Request<JSONValue>(.get, "flaky/burst", query: ["failures": 5, "status": 503])
            let first = await capture { try await client.send(burst) }
            let second = try await client.send(burst)
            #expect(second["attempts"] == 6)
            #expect(await backends.server.hits(forKey: "burst") == 6)
            _ = try first.get()
        },
        Row(name: "429 storm", outcome: .fails([.rateLimited]), limit: hangBound, configure: retrying) { client, backends in
            // 32 callers, every answer 429: each fails as rate limited, retries stay bounded.
            // Separate requests: identical calls in flight would otherwise be sent once.
            client.configuration.coalescesRequests = false
            let storm = Request<JSONValue>(.get, "flaky/storm", query: ["failures": 1_000_000, "status": 429, "retry_after": 0])
            let results = await withTaskGroup(of: Result<JSONValue, CourierError>.self) { group in
                for _ in 0..<32 { group.addTask { await capture { try await client.send(storm) } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.error?.kind == .rateLimited })
            let hits = await backends.server.hits(forKey: "storm")
            #expect(hits >= 32 && hits <= 96)
            _ = try results[0].get()
        },
    ]

    @Test(
        "each fault yields its error kind in bounded time, then the next request succeeds",
        arguments: TransportKind.allCases, matrix)
    func fault(transport: TransportKind, row: Row) async throws {
        try await withBackends(transport) { backends in
            let client = Client(baseURL: BaseURL(backends.server.baseURL), transport: backends.transport) {
                $0.timeout = .seconds(20)  // a hang shows as a failure past `limit`
                row.configure(&$0)
            }
            let (result, elapsed) = await measure { await capture { try await row.send(client, backends) } }
            switch row.outcome {
            case .succeeds:
                #expect(result.error == nil, "\(row) failed: \(String(describing: result.error))")
            case .fails(let kinds):
                let error = try #require(result.error, "\(row) succeeded")
                #expect(kinds.contains(error.kind), "\(row) gave \(error) / \(String(reflecting: error.underlyingError))")
            }
            #expect(elapsed < row.limit, "\(row) took \(elapsed)")
            // The matrix for the closing note: `swift test --filter FaultInjection | grep fault-matrix`.
            let kind = result.error.map { $0.kind.description } ?? "success"
            print("fault-matrix | \(row) | \(transport) | \(kind) | \(Int(elapsed / .milliseconds(1))) ms")

            let next = try await client.send(Request<Echo>(.get, "echo/next").timeout(.seconds(20))).path
            #expect(next == "/echo/next")
        }
    }

    @Test("a server error keeps the server's message", arguments: TransportKind.allCases)
    func serverMessage(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let error = await #expect(throws: CourierError.self) {
                try await backends.echo().send(Request<Echo>(.get, "x").header(.fault, "status=500,message=Database unavailable"))
            }
            #expect(error?.kind == .serverError)
            #expect(error?.localizedDescription == "Database unavailable")
        }
    }

    /// Sends `request`, with a progress handler or without: with one, AsyncHTTPClient's transport
    /// reads through its async API, without one through its delegate API.
    static func send(_ request: Request<Data>, with client: Client, _ withProgress: Bool) async throws -> Data {
        withProgress ? try await client.send(request, progress: { _ in }) : try await client.send(request)
    }

    @Test("the body size limit is configurable", arguments: TransportKind.allCases, [false, true])
    func sizeLimit(transport: TransportKind, withProgress: Bool) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.maximumResponseBodySize = 1_000_000 }
            let error = await #expect(throws: CourierError.self) {
                try await Self.send(Request<Data>(.get, "x").header(.fault, "huge=2000000"), with: client, withProgress)
            }
            #expect(error?.kind == .responseTooLarge)
            let fits = try await Self.send(Request<Data>(.get, "x").header(.fault, "huge=900000"), with: client, withProgress)
            #expect(fits.count == 900_000)
        }
    }

    @Test(
        "a body without Content-Length is refused once it grows past the limit",
        arguments: TransportKind.allCases, [false, true]
    )
    func sizeLimitWhileReading(transport: TransportKind, withProgress: Bool) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.maximumResponseBodySize = 1_000_000 }
            let error = await #expect(throws: CourierError.self) {
                try await Self.send(Request<Data>(.get, "x").header(.fault, "huge=2000000,unannounced"), with: client, withProgress)
            }
            #expect(error?.kind == .responseTooLarge)
            #expect(error?.localizedDescription.contains("limit") == true)
            let fits = try await Self.send(Request<Data>(.get, "x").header(.fault, "huge=900000,unannounced"), with: client, withProgress)
            #expect(fits.count == 900_000)
        }
    }
}
