import Foundation
import Hummingbird

/// `GET /basic-auth/{user}/{password}`, as common HTTP test servers have it: 200 with
/// `{"authenticated": true, "user": …}` when the request carries `Authorization: Basic` with that
/// user and password (RFC 7617), otherwise 401 with `WWW-Authenticate: Basic realm=…`.
enum BasicAuthRoutes {
    struct Authenticated: Encodable {
        var authenticated: Bool
        var user: String
    }

    static func register(on router: Router<ReferenceRequestContext>) {
        router.get("basic-auth/:user/:password") { request, context in
            let user = context.parameters.get("user") ?? ""
            let password = context.parameters.get("password") ?? ""
            guard let credentials = basicCredentials(of: request), credentials == "\(user):\(password)" else {
                var response = JSONResponse.message("Authentication required", status: .unauthorized)
                response.headers[.wwwAuthenticate] = #"Basic realm="\#(ChallengeMiddleware.realm)", charset="UTF-8""#
                return response
            }
            return JSONResponse.make(Authenticated(authenticated: true, user: user))
        }
    }

    /// `user:password` from an `Authorization: Basic` field.
    static func basicCredentials(of request: Request) -> String? {
        guard let authorization = request.headers[.authorization] else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])) else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }
}
