import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("The stub transport answers what a test registered, through the client's whole pipeline")
struct StubTransportTests {
    @Test("a request matches by method, path template, query, header field and body")
    func matching() async throws {
        let stub = StubTransport()
        stub.answer(.get("accounts/{id}"), with: .json(Account(id: 1, name: "any")))
        stub.answer(.get("accounts/{id}").query("fields", "name"), with: .json(Account(id: 2, name: "query")))
        stub.answer(.get("accounts/*").header(.acceptLanguage, "fr"), with: .json(Account(id: 3, name: "header")))
        stub.answer(.put("accounts/{}").jsonBody(["name": "Grace"]), with: .json(Account(id: 4, name: "json body")))
        stub.answer(.put("/v2/accounts/5").body("a body naming Ada") { String(decoding: $0, as: UTF8.self).contains("Ada") }, with: .json(Account(id: 5, name: "predicate")))
        let client = Client.accounts(stub)

        #expect(try await client.send(AccountAPI.account(id: 9)).name == "any")
        #expect(try await client.send(Request<Account>(.get, "accounts/9", query: ["fields": "name"])).name == "query")
        #expect(try await client.send(Request<Account>(.get, "accounts/9").header(.acceptLanguage, "fr")).name == "header")
        #expect(try await client.send(AccountAPI.rename(id: 9, name: "Grace")).name == "json body")
        #expect(try await client.send(AccountAPI.rename(id: 5, name: "Ada")).name == "predicate")
        await #expect(throws: CourierError.self) { try await client.send(Request<Account>(.delete, "accounts/9")) }
    }

    @Test("a body can be bytes, an Encodable, a JSONValue or a fixture file")
    func answers() async throws {
        let stub = StubTransport()
        stub.answer(.get("bytes"), with: .data(Data([1, 2, 3])))
        stub.answer(.get("encodable"), with: .json(Account(id: 1, name: "Ada")))
        stub.answer(.get("json"), with: .json(["id": 2, "name": "Grace"]))
        stub.answer(.get("fixture"), with: .fixture(fixtures?.appending(path: "account.json")))
        stub.answer(.get("text"), with: .text("hello"))
        let client = Client.accounts(stub)

        #expect(try await client.send(Request<Data>(.get, "bytes")) == Data([1, 2, 3]))
        #expect(try await client.send(Request<Account>(.get, "encodable")) == Account(id: 1, name: "Ada"))
        #expect(try await client.send(Request<Account>(.get, "json")) == Account(id: 2, name: "Grace"))
        #expect(try await client.send(Request<Account>(.get, "fixture")) == Account(id: 7, name: "Ada"))
        #expect(try await client.send(Request<Data>(.get, "text")) == Data("hello".utf8))
    }

    @Test("a fixture that does not exist fails the call with the file's name")
    func missingFixture() async throws {
        let stub = StubTransport()
        stub.answer(.get("fixture"), with: .fixture(URL(fileURLWithPath: "/nonexistent/missing.json")))
        let error = await #expect(throws: CourierError.self) { try await Client.accounts(stub).send(Request<Account>(.get, "fixture")) }
        #expect(error?.description.contains("missing.json") == true)
    }

    @Test("a sequence answers in order and its last answer repeats: 503, then 200 through retry")
    func sequenceWithRetry() async throws {
        let stub = StubTransport()
        stub.answer(.get("accounts/1"), with: .status(.serviceUnavailable), .json(Account(id: 1, name: "Ada")))
        let client = Client.accounts(stub) { $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 3, backoff: Backoff(base: .milliseconds(1), maximum: .milliseconds(1))))] }
        #expect(try await client.send(AccountAPI.account(id: 1)).name == "Ada")
        #expect(try await client.send(AccountAPI.account(id: 1)).name == "Ada")
        #expect(stub.requests.count == 3)
    }

    @Test("a server error reaches the app as its kind with the server's message")
    func serverError() async throws {
        let stub = StubTransport()
        stub.answer(.get("accounts/{}"), with: .json(["message": "No such account"], status: .notFound))
        let error = await #expect(throws: CourierError.self) { try await Client.accounts(stub).send(AccountAPI.account(id: 4)) }
        #expect(error?.kind == .notFound)
        #expect(error?.message == "No such account")
    }

    @Test("transport failures arrive as the kinds the client gives a real network's")
    func failures() async throws {
        let cases: [(StubFailure, CourierError.Kind)] = [
            (.offline, .notConnected), (.timedOut, .timedOut), (.connectionReset, .notConnected), (.untrustedServer, .untrustedServer),
        ]
        for (failure, kind) in cases {
            let stub = StubTransport()
            stub.answer(.any, with: .failure(failure))
            let error = await #expect(throws: CourierError.self) { try await Client.accounts(stub).send(AccountAPI.account(id: 1)) }
            #expect(error?.kind == kind, "\(failure)")
        }
    }

    @Test("a computed answer sees the request and may read the stub")
    func computed() async throws {
        let stub = StubTransport()
        stub.answer(.get("accounts/{id}")) { request in
            .json(Account(id: stub.requests.count, name: String(request.path.split(separator: "/").last ?? "")))
        }
        let client = Client.accounts(stub)
        #expect(try await client.send(AccountAPI.account(id: 8)) == Account(id: 1, name: "8"))
        #expect(try await client.send(AccountAPI.account(id: 9)) == Account(id: 2, name: "9"))
    }

    @Test("a body in chunks arrives whole")
    func chunks() async throws {
        let stub = StubTransport()
        let bytes = Data((0..<1000).map { UInt8($0 % 251) })
        stub.answer(.get("blob"), with: .data(bytes).chunked(into: 7))
        #expect(try await Client.accounts(stub).send(Request<Data>(.get, "blob")) == bytes)
    }

    @Test("a body kept open ends when its gate opens; a reader that gives up first closes it")
    func keptOpen() async throws {
        let stub = StubTransport()
        let (finished, abandoned) = (StubGate(), StubGate())
        stub.answer(.get("ticker"), with: .text("tick").keptOpen(until: finished))
        stub.answer(.get("silent"), with: .text("", contentType: "text/event-stream").keptOpen(until: abandoned))
        let client = Client.accounts(stub)

        let ticker = try await client.stream(Request<Data>(.get, "ticker"))
        #expect(ticker.expectedLength == nil, "a body still open has no length")
        let reading = Task { try await ticker.reduce(into: [String]()) { $0.append(String(decoding: $1, as: UTF8.self)) } }
        #expect(await eventually { finished.waitingCount == 1 }, "after the body's bytes, the reader waits for more")
        finished.open()
        #expect(try await reading.value == ["tick"])

        let silent = try await client.stream(Request<Data>(.get, "silent"))
        let givingUp = Task { try await silent.reduce(0) { $0 + $1.count } }
        #expect(await eventually { abandoned.waitingCount == 1 })
        givingUp.cancel()
        await #expect(throws: (any Error).self) { try await givingUp.value }
        #expect(abandoned.cancelledCount == 1)
        #expect(abandoned.waitingCount == 0)
    }

    @Test("an unmatched request fails with a message listing what was registered, credentials hidden")
    func unmatched() async throws {
        let stub = StubTransport()
        stub.answer(.get("accounts/{id}"), with: .status(.ok))
        stub.answer(.post("login").header(.authorization, "Bearer s3cret"), with: .status(.ok))
        let client = Client.accounts(stub) { $0.commonParameters.headerFields[.authorization] = "Bearer t0ken" }
        let error = await #expect(throws: CourierError.self) {
            try await client.send(Request<Void>(.delete, "accounts/3", query: ["api_key": "k3y", "total_pages": 2]))
        }
        let message = try #require(error?.description)
        #expect(error?.kind == .transportFailed)
        #expect(message.contains("No stub matches this request"))
        #expect(message.contains("DELETE https://api.example.com/v2/accounts/3"))
        #expect(message.contains("total_pages=2"), "only credentials are hidden, so a mismatch can be seen")
        #expect(message.contains("1. GET accounts/{id}"))
        #expect(message.contains("2. POST login header Authorization: <redacted>"))
        for secret in ["s3cret", "t0ken", "k3y"] { #expect(!message.contains(secret), "\(secret) leaked") }
        #expect(stub.requests.count == 1, "an unmatched request is recorded too")
    }

    @Test("the stub runs the whole pipeline: common parameters, authentication middleware and decoding strategies")
    func wholePipeline() async throws {
        let stub = StubTransport()
        stub.answer(.get("me").query("locale", "en").header(.authorization, "Bearer abc"), with: .json(["user_name": "Ada"]))
        let session = AuthenticationSession { _ in AuthTokens(accessToken: "new") }
        try session.signIn(AuthTokens(accessToken: "abc"))
        let client = Client.accounts(stub) {
            $0.commonParameters.query["locale"] = "en"
            $0.decoder.keyDecodingStrategy = .convertFromSnakeCase
            $0.middleware = [AuthenticationMiddleware(session)]
        }
        struct Me: Decodable, Sendable { var userName: String }
        #expect(try await client.send(Request<Me>(.get, "me")).userName == "Ada")
    }
}
