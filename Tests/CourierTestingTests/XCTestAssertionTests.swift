import Courier
import CourierTesting
import XCTest

/// The assertion for teams whose tests are still XCTest cases.
final class XCTestAssertionTests: XCTestCase {
    func testARecordedRequestMatchingItsExpectationPasses() async throws {
        let stub = StubTransport()
        stub.answer(.any, with: .status(.noContent))
        try await Client.accounts(stub).send(Request<Void>(.delete, "accounts/3", query: ["soft": true]))
        XCTAssertRequest(stub.requests.first, matches: .delete("accounts/{id}").query("soft", "true"))
        XCTAssertNil(stub.requests.first?.difference(from: .delete("accounts/3")))
    }
}
