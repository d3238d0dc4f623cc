import Foundation
import Hummingbird
import MultipartKit
import NIOCore

/// The social backend (`/api/v1`): friends of a user, add and remove a friend, avatars.
/// Errors are `{"message": "…"}`; every route needs a valid access token.
enum SocialRoutes {
    static func register(on router: Router<ReferenceRequestContext>, store: ReferenceStore) {
        let api = router.group("api/v1")

        api.get("friends") { request, _ -> Response in
            if let denied = await authenticate(request, store: store) { return denied }
            guard let userID = request.queryInt("user_id") else {
                return JSONResponse.message("user_id is required", status: .badRequest)
            }
            guard let friends = await store.friends(of: userID) else {
                return JSONResponse.message("User \(userID) not found", status: .notFound)
            }
            return JSONResponse.make(friends)
        }

        api.post("friends") { request, _ -> Response in
            if let denied = await authenticate(request, store: store) { return denied }
            struct NewFriendship: Decodable {
                var user_id: Int
                var friend_id: Int
            }
            guard let body = await request.decodeJSON(NewFriendship.self) else {
                return JSONResponse.message("Body must be {\"user_id\": Int, \"friend_id\": Int}", status: .badRequest)
            }
            switch await store.addFriend(body.friend_id, to: body.user_id) {
            case .done(let friend): return JSONResponse.make(friend, status: .created)
            case .unknownUser(let id): return JSONResponse.message("User \(id) not found", status: .notFound)
            case .alreadyFriends, .notFriends:
                return JSONResponse.message("User \(body.friend_id) is already a friend", status: .conflict)
            }
        }

        api.delete("friends/:friend_id") { request, context -> Response in
            if let denied = await authenticate(request, store: store) { return denied }
            guard let userID = request.queryInt("user_id"),
                let friendID = context.parameters.get("friend_id", as: Int.self)
            else { return JSONResponse.message("user_id and a numeric friend id are required", status: .badRequest) }
            switch await store.removeFriend(friendID, from: userID) {
            case .done: return JSONResponse.empty()
            case .unknownUser(let id): return JSONResponse.message("User \(id) not found", status: .notFound)
            case .notFriends, .alreadyFriends:
                return JSONResponse.message("User \(friendID) is not a friend of user \(userID)", status: .notFound)
            }
        }

        api.get("users/:id") { request, context -> Response in
            if let denied = await authenticate(request, store: store) { return denied }
            guard let id = context.parameters.get("id", as: Int.self),
                let user = SampleData.users.first(where: { $0.id == id })
            else { return JSONResponse.message("User not found", status: .notFound) }
            return JSONResponse.make(user)
        }

        api.post("users/:id/avatar") { request, context -> Response in
            if let denied = await authenticate(request, store: store) { return denied }
            guard let id = context.parameters.get("id", as: Int.self) else {
                return JSONResponse.message("User not found", status: .notFound)
            }
            var request = request
            let parts: [MultipartSummary]
            do {
                parts = try await MultipartSummary.parse(&request)
            } catch {
                return JSONResponse.message("Body must be multipart/form-data: \(error)", status: .badRequest)
            }
            guard let avatar = parts.first(where: { $0.name == "avatar" && $0.filename != nil }) else {
                return JSONResponse.message("An \"avatar\" file part is required", status: .unprocessableContent)
            }
            struct Receipt: Encodable {
                var user_id: Int
                var filename: String?
                var content_type: String?
                var size: Int
                var caption: String?
            }
            return JSONResponse.make(
                Receipt(
                    user_id: id,
                    filename: avatar.filename,
                    content_type: avatar.content_type,
                    size: avatar.size,
                    caption: parts.first(where: { $0.name == "caption" })?.text
                ),
                status: .created
            )
        }
    }

    /// `nil` when the request carries a live token, otherwise the 401 to send.
    static func authenticate(_ request: Request, store: ReferenceStore) async -> Response? {
        guard let token = request.accessToken else {
            return JSONResponse.message("Authentication required", status: .unauthorized)
        }
        switch await store.check(token: token) {
        case .valid: return nil
        case .expired: return JSONResponse.message("Token expired", status: .unauthorized)
        case .unknown: return JSONResponse.message("Invalid token", status: .unauthorized)
        }
    }
}
