import Courier
import CourierTesting
import Testing

@Suite("Sample responses per endpoint answer every call of an endpoint")
struct SampleRespondingTests {
    @Test("a stub made from samples answers each endpoint from its sample, whatever the values in its path")
    func samples() async throws {
        let stub = StubTransport(samples: [AccountAPI.account(id: 1), AccountAPI.rename(id: 1, name: "")])
        let client = Client.accounts(stub)
        #expect(try await client.send(AccountAPI.account(id: 42)) == Account(id: 1, name: "Sample"))
        #expect(try await client.send(AccountAPI.rename(id: 42, name: "x")) == Account(id: 1, name: ""))
        await #expect(throws: CourierError.self) { try await client.send(Request<Account>(.get, "elsewhere")) }
    }

    @Test("an endpoint's matcher is its method and path template")
    func endpointMatcher() {
        let matcher = RequestMatcher.endpoint(AccountAPI.rename(id: 3, name: "Ada"))
        #expect(matcher.method == .put)
        #expect(matcher.path == "accounts/{}")
    }
}
