import Foundation
import Hummingbird

/// The auth backend: log in, check a token (`Authorization: JWT <token>`), refresh, log out.
/// Errors are `{"message": "…"}`.
enum AuthRoutes {
    struct SessionBody: Encodable {
        var token: String
        var refresh_token: String
        var expires_in: Int
        var user_id: Int
    }

    static func register(on router: Router<ReferenceRequestContext>, store: ReferenceStore) {
        router.post("authenticate") { request, _ -> Response in
            struct Credentials: Decodable {
                var email: String?
                var password: String?
            }
            let credentials = await request.decodeJSON(Credentials.self)
            guard let email = credentials?.email, let password = credentials?.password,
                !email.isEmpty, !password.isEmpty
            else { return JSONResponse.message("Email and Password Required", status: .badRequest) }
            guard let started = await store.authenticate(email: email, password: password) else {
                return JSONResponse.message("Invalid email or password", status: .unauthorized)
            }
            return sessionResponse(started, store: store)
        }

        router.get("token") { request, _ -> Response in
            guard let token = request.accessToken else {
                return JSONResponse.message("Authentication required", status: .unauthorized)
            }
            switch await store.check(token: token) {
            case .valid(let userID, let expiresAt):
                struct TokenStatus: Encodable {
                    var valid = true
                    var user_id: Int
                    var expires_at: String
                    var api_version: String?
                    var device_type: String?
                }
                return JSONResponse.make(
                    TokenStatus(
                        user_id: userID,
                        expires_at: ISO8601DateFormatter().string(from: expiresAt),
                        api_version: request.headerValue("X-API-Version") ?? request.uri.queryParameters["api_version"].map(String.init),
                        device_type: request.headerValue("X-Device-Type") ?? request.uri.queryParameters["device_type"].map(String.init)
                    )
                )
            case .expired: return JSONResponse.message("Token expired", status: .unauthorized)
            case .unknown: return JSONResponse.message("Invalid token", status: .unauthorized)
            }
        }

        router.post("token/refresh") { request, _ -> Response in
            struct RefreshBody: Decodable { var refresh_token: String }
            guard let body = await request.decodeJSON(RefreshBody.self),
                let started = await store.refresh(refreshToken: body.refresh_token)
            else { return JSONResponse.message("Session expired, please log in again", status: .unauthorized) }
            return sessionResponse(started, store: store)
        }

        router.post("logout") { request, _ -> Response in
            guard let token = request.accessToken, await store.logout(token: token) else {
                return JSONResponse.message("Invalid token", status: .unauthorized)
            }
            return JSONResponse.empty()
        }
    }

    private static func sessionResponse(
        _ started: (token: String, session: ReferenceStore.Session),
        store: ReferenceStore
    ) -> Response {
        let lifetime = started.session.expiresAt.timeIntervalSinceNow
        return JSONResponse.make(
            SessionBody(
                token: started.token,
                refresh_token: started.session.refreshToken,
                expires_in: max(0, Int(lifetime.rounded())),
                user_id: started.session.userID
            )
        )
    }
}
