import Courier
import ExampleAPIs
import Foundation
import Testing

@Suite("Server faults become specific errors, and the client keeps working")
struct FaultInjectionTests {
    struct Case: Sendable, CustomStringConvertible {
        var fault: String
        var kinds: Set<String>
        var description: String { fault }
    }

    static let cases: [Case] = [
        Case(fault: "malformed", kinds: ["decodingFailed"]),
        Case(fault: "empty", kinds: ["decodingFailed"]),
        Case(fault: "wrong-content-type", kinds: ["invalidResponse"]),
        Case(fault: "status=503,message=Back in five minutes", kinds: ["serverError"]),
        Case(fault: "status=418", kinds: ["clientError"]),
        Case(fault: "huge=20000000", kinds: ["responseTooLarge"]),
        // A connection that dies mid-body: the transport reports a lost connection or a bad response.
        Case(fault: "truncate", kinds: ["notConnected", "invalidResponse"]),
        Case(fault: "reset", kinds: ["notConnected", "invalidResponse"]),
    ]

    @Test("each fault yields its error kind, then the next request succeeds",
          arguments: TransportKind.allCases, cases)
    func fault(transport: TransportKind, testCase: Case) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.timeout = .seconds(10) }
            let (result, elapsed) = await measure {
                await capture {
                    try await client.send(Request<Echo>(.get, "fault").header(.fault, testCase.fault))
                }
            }
            let error = try #require(result.error, "\(testCase.fault) succeeded")
            #expect(testCase.kinds.contains(error.kind.description), "\(testCase.fault) gave \(error) / \(String(reflecting: error.underlyingError))")
            #expect(elapsed < .seconds(5))
            let value3 = try await client.send(Request<Echo>(.get, "next")).path
            #expect(value3 == "/echo/next")
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

    @Test("the body size limit is configurable", arguments: TransportKind.allCases)
    func sizeLimit(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let client = backends.echo { $0.maximumResponseBodySize = 1_000_000 }
            let error = await #expect(throws: CourierError.self) {
                try await client.send(Request<Data>(.get, "x").header(.fault, "huge=2000000"))
            }
            #expect(error?.kind == .responseTooLarge)
            let fits = try await client.send(Request<Data>(.get, "x").header(.fault, "huge=900000"))
            #expect(fits.count == 900_000)
        }
    }
}
