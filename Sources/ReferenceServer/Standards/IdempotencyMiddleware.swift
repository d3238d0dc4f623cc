import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Honours `Idempotency-Key` the way Stripe's API does, on every route of the main port.
///
/// A POST, PUT, PATCH or DELETE with a key runs once. A later request with the same key and the
/// same method, path and body gets the first result again, with `Idempotent-Replayed: true`,
/// and changes nothing; one with a different method, path or body is refused with 422. Results
/// a client is asked to retry (408, 429, 5xx) are not kept: the change was not applied, and the
/// next request with the key runs. Unlike Stripe, which answers 409, a request whose key is in use
/// by one still running waits for that one's result (up to 10 s).
struct IdempotencyMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    static let key = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    let ledger: IdempotencyLedger

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard ![.get, .head, .options].contains(request.method), let key = request.headers[Self.key] else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.body.collect(upTo: 64 * 1024 * 1024)
        request.body = RequestBody(buffer: body)
        let digest = SHA256.hash(data: Data(body.readableBytesView)).map { String(format: "%02x", $0) }.joined()
        let fingerprint = "\(request.method.rawValue) \(request.uri.path) \(digest)"
        for _ in 0..<500 {
            switch await ledger.admit(key: key, fingerprint: fingerprint) {
            case .proceed:
                return try await run(request, key: key, context: context, next: next)
            case .replay(let stored):
                var headers = stored.headers
                headers[Self.replayed] = "true"
                return Response(status: stored.status, headers: headers, body: ResponseBody(byteBuffer: stored.body))
            case .mismatch:
                return JSONResponse.message(
                    "Keys for idempotent requests can only be used with the same parameters they were first used with.",
                    status: .unprocessableContent
                )
            case .inProgress:
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        return JSONResponse.message("A request with this Idempotency-Key is still running.", status: .conflict)
    }

    private func run(
        _ request: Request,
        key: String,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            var response = try await next(request, context)
            let status = response.status.code
            guard ![401, 403, 408, 429].contains(status), status < 500 else {
                await ledger.abandon(key)
                return response
            }
            let body = try await BodyCollector.collect(response.body)
            response.body = ResponseBody(byteBuffer: body)
            await ledger.finish(key, with: .init(status: response.status, headers: response.headers, body: body))
            return response
        } catch {
            await ledger.abandon(key)
            throw error
        }
    }
}
