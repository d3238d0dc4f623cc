import Courier
import CourierTesting
import Foundation
import Testing

@Suite("Recorded requests keep what was sent, and assertions on them read as differences")
struct RecordedRequestTests {
    struct Rename: Codable, Sendable, Equatable {
        var name: String
    }

    @Test("a recorded request has its method, URL, header fields and decoded body")
    func recorded() async throws {
        let stub = StubTransport()
        stub.answer(.any, with: .json(Account(id: 1, name: "Ada")))
        _ = try await Client.accounts(stub).send(AccountAPI.rename(id: 1, name: "Ada"))
        let request = try #require(stub.requests.first)
        #expect(request.method == .put)
        #expect(request.url.absoluteString == "https://api.example.com/v2/accounts/1")
        #expect(request.path == "/v2/accounts/1")
        #expect(request.headerFields[.contentType]?.hasPrefix("application/json") == true)
        #expect(try request.decodedBody(as: Rename.self) == Rename(name: "Ada"))
        #expect(request.jsonBody == ["name": "Ada"])
        #expect(request.name == "PUT accounts/{}")
        #expect(stub.requests(matching: .put("accounts/1")).count == 1)
    }

    @Test("printing a recorded request hides credential header fields, query parameters and body members")
    func redacted() async throws {
        let stub = StubTransport()
        stub.answer(.any, with: .status(.noContent))
        let client = Client.accounts(stub) { $0.commonParameters.headerFields[.authorization] = "Bearer t0ken" }
        try await client.send(Request<Void>(.post, "login", query: ["api_key": "k3y", "page": 2], body: .json(["email": "a@example.com", "password": "hunter2"])))
        let text = try #require(stub.requests.first).description
        #expect(text.contains("POST https://api.example.com/v2/login?api_key=<redacted>&page=2"))
        #expect(text.contains("Authorization: <redacted>"))
        #expect(text.contains("\"email\":\"a@example.com\""))
        for secret in ["t0ken", "k3y", "hunter2"] { #expect(!text.contains(secret), "\(secret) leaked") }
    }

    @Test("a difference names each part that differs, credentials hidden")
    func difference() async throws {
        let stub = StubTransport()
        stub.answer(.any, with: .status(.noContent))
        let client = Client.accounts(stub) { $0.commonParameters.headerFields[.authorization] = "Bearer t0ken" }
        try await client.send(Request<Void>(.post, "login", query: ["page": 2], body: .json(["email": "b@example.com", "password": "hunter2"])))
        let request = try #require(stub.requests.first)
        let expected = RequestMatcher.put("signin").query("page", "3").header(.authorization, "Bearer other").jsonBody(["email": "a@example.com"])
        let difference = try #require(request.difference(from: expected))
        #expect(difference.contains("method: expected PUT, got POST"))
        #expect(difference.contains("path: expected signin, got /v2/login"))
        #expect(difference.contains("query page: expected \"3\", got \"2\""))
        #expect(difference.contains("header Authorization: expected <redacted>, got <redacted>"))
        #expect(difference.contains("body: expected {\"email\":\"a@example.com\"}"))
        for secret in ["t0ken", "other", "hunter2"] { #expect(!difference.contains(secret), "\(secret) leaked") }
        #expect(request.difference(from: .post("login").query("page", "2")) == nil)
    }

    @Test("expectRequest records an issue for a request that differs, and none for one that matches")
    func expectRequestRecordsIssues() async throws {
        let stub = StubTransport()
        stub.answer(.any, with: .status(.noContent))
        try await Client.accounts(stub).send(Request<Void>(.get, "accounts"))
        expectRequest(stub.requests.first, matches: .get("accounts"))
        withKnownIssue("the method differs") {
            expectRequest(stub.requests.first, matches: .post("accounts"))
        }
        withKnownIssue("no request at all") {
            expectRequest(stub.requests.dropFirst().first, matches: .get("accounts"))
        }
    }
}
