import Courier
import Foundation
import TestSupport
import Testing

@Suite("Against httpbin: Basic and bearer authentication as the Authentication article describes them", .requires(.pythonServers))
struct AuthenticationInteropTests {
    @Test("BasicAuthenticationMiddleware's credentials are accepted by /basic-auth, and httpbin records an Authorization field", arguments: TransportKind.allCases)
    func basic(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) {
                $0.middleware = [BasicAuthenticationMiddleware(username: "ada", password: "lovelace")]
            }
            let echo = try await client.send(Request<JSONValue>(.get, "basic-auth/ada/lovelace"))
            #expect(echo["authenticated"] == true)
            #expect(echo["user"]?.stringValue == "ada")
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /basic-auth/ada/lovelace ") }
            #expect(record.status == "200")
            #expect(record.authorization != "-")
        }
    }

    @Test("a wrong password's 401 with WWW-Authenticate fails at once with unauthorized", arguments: TransportKind.allCases)
    func basicRefused(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) {
                $0.middleware = [BasicAuthenticationMiddleware(username: "ada", password: "wrong")]
            }
            let result = await capture { try await client.send(Request<JSONValue>(.get, "basic-auth/ada/lovelace")) }
            #expect(result.error?.kind == .unauthorized)
            #expect(result.error?.status == .unauthorized)
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /basic-auth/ada/lovelace ") }
            #expect(record.status == "401")
            #expect(httpbin.accessRecords.count == 1)
        }
    }

    @Test("a session's token goes as Authorization: Bearer, and /bearer echoes it", arguments: TransportKind.allCases)
    func bearer(transport: TransportKind) async throws {
        try await withInteropServer(try await HTTPBinServer.start()) { httpbin in
            let session = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "interop-token"))) { _ in
                throw CourierError(.unauthorized, message: "No way to renew.")
            }
            let client = Client(baseURL: BaseURL(httpbin.baseURL), transport: transport.make()) {
                $0.middleware = [AuthenticationMiddleware(session, scheme: .bearer)]
            }
            let echo = try await client.send(Request<JSONValue>(.get, "bearer"))
            #expect(echo["authenticated"] == true)
            #expect(echo["token"]?.stringValue == "interop-token")
            let record = try await httpbin.accessRecord { $0.request.hasPrefix("GET /bearer ") }
            #expect(record.status == "200")
        }
    }
}
