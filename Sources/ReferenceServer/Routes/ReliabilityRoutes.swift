import Foundation
import HTTPTypes
import Hummingbird

/// Routes for retry and rate-limit scenarios.
///
/// - `GET|POST|PUT /flaky/{key}?failures=N&status=503&retry_after=S`: the first N requests for
///   `key` get `status` (with `Retry-After: S` when given), later ones 200 `{"key", "attempts"}`.
/// - `GET /limited?per_second=5&burst=5`: a token bucket shared by all callers (one request of
///   slack over `burst`), reported in `RateLimit-Remaining`/`RateLimit-Reset`; beyond it 429 with
///   `Retry-After: 1`.
enum ReliabilityRoutes {
    struct Attempts: Encodable {
        var key: String
        var attempts: Int
    }

    static func register(on router: Router<ReferenceRequestContext>, ledger: ReliabilityLedger) {
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("flaky/:key", method: method) { request, context -> Response in
                let key = context.parameters.get("key") ?? ""
                let attempts = await ledger.hit(key)
                let failures = request.queryInt("failures") ?? 2
                guard attempts > failures else {
                    let status = HTTPResponse.Status(code: request.queryInt("status") ?? 503)
                    var response = JSONResponse.message("Failure \(attempts) of \(failures)", status: status)
                    if let retryAfter = request.queryInt("retry_after") {
                        response.headers[.retryAfter] = String(retryAfter)
                    }
                    return response
                }
                return JSONResponse.make(Attempts(key: key, attempts: attempts))
            }
        }

        router.get("limited") { request, _ -> Response in
            let perSecond = max(1, request.queryInt("per_second") ?? 5)
            // One request of slack over the client's burst absorbs loopback jitter.
            let decision = await ledger.admit(perSecond: perSecond, burst: (request.queryInt("burst") ?? perSecond) + 1)
            var response =
                decision.admitted
                ? JSONResponse.make(["admitted": true])
                : JSONResponse.message("Too many requests", status: .tooManyRequests)
            if !decision.admitted { response.headers[.retryAfter] = "1" }
            if let remaining = HTTPField.Name("RateLimit-Remaining"), let reset = HTTPField.Name("RateLimit-Reset") {
                response.headers[remaining] = String(decision.remaining)
                response.headers[reset] = String(decision.reset)
            }
            return response
        }
    }
}
