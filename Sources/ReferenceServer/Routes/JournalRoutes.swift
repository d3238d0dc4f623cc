import Foundation
import HTTPTypes
import Hummingbird

/// A journal per name that records the values posted to it, in arrival order: what the offline
/// queue's tests count to prove each change applied once and in order.
///
/// - `POST /journal/{name}` with `{"value": Int}`: appends the value and answers 201
///   `{"name", "value", "position"}`; a negative value is refused with 400 and not appended.
///   `?failures=N&status=503&retry_after=S`: the first N requests to `name` answer `status`
///   (with `Retry-After: S` when given) and append nothing.
/// - `GET /journal/{name}`: the values, in order.
enum JournalRoutes {
    struct Entry: Codable {
        var value: Int
    }

    struct Receipt: Encodable {
        var name: String
        var value: Int
        var position: Int
    }

    static func register(on router: Router<ReferenceRequestContext>, ledger: ReliabilityLedger) {
        router.post("journal/:name") { request, context -> Response in
            let name = context.parameters.get("name") ?? ""
            let hits = await ledger.hit("journal/\(name)")
            if let failures = request.queryInt("failures"), hits <= failures {
                var response = JSONResponse.message("Unavailable, \(hits) of \(failures)", status: HTTPResponse.Status(code: request.queryInt("status") ?? 503))
                if let retryAfter = request.queryInt("retry_after") { response.headers[.retryAfter] = String(retryAfter) }
                return response
            }
            guard let entry = await request.decodeJSON(Entry.self) else {
                return JSONResponse.message("Body must be {\"value\": Int}", status: .badRequest)
            }
            guard entry.value >= 0 else {
                return JSONResponse.message("A journal value cannot be negative", status: .badRequest)
            }
            let position = await ledger.append(entry.value, toJournal: name)
            return JSONResponse.make(Receipt(name: name, value: entry.value, position: position), status: .created)
        }

        router.get("journal/:name") { _, context -> Response in
            JSONResponse.make(await ledger.journal(context.parameters.get("name") ?? ""))
        }
    }
}
