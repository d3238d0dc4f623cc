import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin: error statuses as the kinds Handling errors names, as gunicorn's access log records them", .requires(.pythonServers))
struct StatusCodeInteropTests {
    static let cases: [(code: Int, kind: CourierError.Kind)] = [
        (404, .notFound), (500, .serverError), (429, .rateLimited), (403, .forbidden), (418, .clientError), (401, .unauthorized),
    ]

    @Test("404, 500, 429, 403, 418 and 401 fail with their kinds and statuses; httpbin records each once", arguments: TransportKind.allCases)
    func kinds(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make())
            for (code, kind) in Self.cases {
                let result = await capture { try await client.send(Request<JSONValue>(.get, "status/\(code)")) }
                let error = try #require(result.error)
                #expect(error.kind == kind, "status \(code)")
                #expect(error.status?.code == code)
                // Each body is empty or plain text: no message the standard format reads.
                #expect(error.message?.isEmpty ?? true, "status \(code)")
                #expect(!error.localizedDescription.isEmpty)
                let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /status/\(code) ") }
                #expect(record.status == String(code))
            }
            #expect(httpbin.accessRecords.count == Self.cases.count)
        }
    }

}
