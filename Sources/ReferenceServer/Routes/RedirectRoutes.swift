import Foundation
import HTTPTypes
import Hummingbird

/// Routes that redirect, for Courier's redirect handling:
///
/// - `GET|POST|PUT /redirect?status=302&to=URL`: `status` (301, 302, 303, 307, 308) with
///   `Location: URL` (absolute, or relative to the request).
/// - `GET /redirect/loop`: 302 back to itself.
/// - `GET /redirect/chain/{n}`: 302 to `/redirect/chain/{n-1}`; `n = 0` answers 200 `{"hops": 0}`.
enum RedirectRoutes {
    struct Arrival: Encodable {
        var hops: Int
    }

    static func register(on router: Router<ReferenceRequestContext>) {
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("redirect", method: method) { request, _ -> Response in
                let status = HTTPResponse.Status(code: request.queryInt("status") ?? 302)
                guard let target = request.uri.queryParameters["to"].map(String.init) else {
                    return JSONResponse.message("Give the target in `to`.", status: .badRequest)
                }
                return Response(status: status, headers: [.location: target, .contentLength: "0"])
            }
        }
        router.get("redirect/loop") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/redirect/loop", .contentLength: "0"])
        }
        router.get("redirect/chain/:hops") { _, context -> Response in
            let hops = context.parameters.get("hops", as: Int.self) ?? 0
            guard hops > 0 else { return JSONResponse.make(Arrival(hops: 0)) }
            return Response(status: .found, headers: [.location: "/redirect/chain/\(hops - 1)", .contentLength: "0"])
        }
    }
}
