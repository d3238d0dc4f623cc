import Courier
import CourierTesting
import ExampleAPIs
import Foundation
import Testing

@Suite("Signing in and renewing the token, over a stub")
struct AuthenticationTests {
    static func session(token: String) -> StubResponse {
        .json(["token": .string(token), "refresh_token": .string("refresh-\(token)"), "expires_in": 3600, "user_id": 1])
    }

    static let friends: JSONValue = [["id": 2, "name": "Grace"], ["id": 3, "email": "linus@example.com"]]

    @Test("signing in sends the credentials and keeps the session")
    func signIn() async throws {
        let stub = StubTransport()
        stub.answer(.post("authenticate"), with: Self.session(token: "first"))
        let auth = AuthService(client: .auth(environment: .production, transport: stub))

        let session = try await auth.authenticate(email: "ada@example.com", password: "hunter2")

        #expect(session.token == "first")
        #expect(auth.session.tokens?.accessToken == "first")
        expectRequest(stub.requests.first, matches: .post("authenticate").jsonBody(["email": "ada@example.com", "password": "hunter2"]))
    }

    @Test("an empty password fails before any request")
    func emptyPassword() async throws {
        let stub = StubTransport()
        let auth = AuthService(client: .auth(environment: .production, transport: stub))

        let error = await #expect(throws: CourierError.self) { try await auth.authenticate(email: "ada@example.com", password: "") }

        #expect(error?.message == "Email and Password Required")
        #expect(stub.requests.isEmpty)
    }

    @Test("10 concurrent calls with an expired token renew it once, then all succeed")
    func tokenRefresh() async throws {
        let stub = StubTransport()
        stub.answer(.post("authenticate"), with: Self.session(token: "expired"))
        stub.answer(.post("token/refresh").jsonBody(["refresh_token": "refresh-expired"]), with: Self.session(token: "renewed"))
        stub.answer(.get("friends"), with: .json(["message": "Token expired"], status: .unauthorized))
        stub.answer(.get("friends").header(.authorization, "JWT renewed"), with: .json(Self.friends))
        let auth = AuthService(client: .auth(environment: .production, transport: stub))
        try await auth.authenticate(email: "ada@example.com", password: "hunter2")
        let friends = FriendsService(client: .social(environment: .production, session: auth.session, transport: stub))

        let loaded = try await withThrowingTaskGroup(of: [User].self) { group in
            for _ in 0..<10 { group.addTask { try await friends.load(for: User(id: 1)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(loaded.count == 10)
        #expect(loaded.allSatisfy { $0.map(\.id) == [2, 3] })
        #expect(stub.requests(matching: .post("token/refresh")).count == 1)
        #expect(auth.session.refreshCount == 1)
    }
}
