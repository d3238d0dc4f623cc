import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite("Redirect decisions, without sockets")
struct RedirectDecisionTests {
    let origin = URL(string: "https://api.example.com")!

    func redirect(
        _ status: Int,
        to location: String,
        method: HTTPRequest.Method = .get,
        fields: HTTPFields = [:],
        allowsInsecure: Bool = false
    ) throws(CourierError) -> Redirect? {
        var request = HTTPRequest(method: method, scheme: "https", authority: "api.example.com", path: "/v1/items")
        request.headerFields = fields
        let response = HTTPResponse(status: .init(code: status), headerFields: [.location: location])
        return try Redirect.next(
            after: response,
            to: request,
            origin: origin,
            bodyIsReplayable: true,
            credentialFields: .default,
            allowsInsecure: allowsInsecure
        )
    }

    @Test("every default credential field is dropped for another origin and kept for the same one")
    func credentials() throws {
        var fields = HTTPFields()
        for name in CredentialFields.default.headerNames { fields[name] = "secret" }
        fields[.userAgent] = "tests"
        let elsewhere = try #require(try redirect(302, to: "https://other.example.com/x", fields: fields))
        for name in CredentialFields.default.headerNames { #expect(elsewhere.request.headerFields[name] == nil, "\(name)") }
        #expect(elsewhere.request.headerFields[.userAgent] == "tests")
        let here = try #require(try redirect(302, to: "/v1/other", fields: fields))
        for name in CredentialFields.default.headerNames { #expect(here.request.headerFields[name] == "secret", "\(name)") }
    }

    @Test("https to http is refused unless allowed, and a body never goes to http")
    func downgrade() throws {
        #expect(throws: CourierError.self) { try redirect(302, to: "http://api.example.com/x") }
        do {
            _ = try redirect(301, to: "http://api.example.com/x")
        } catch {
            #expect(error.kind == .insecureRedirect)
        }
        let allowed = try redirect(302, to: "http://api.example.com/x", allowsInsecure: true)
        #expect(allowed?.origin.absoluteString == "http://api.example.com")
        do {
            _ = try redirect(307, to: "http://api.example.com/x", method: .post, allowsInsecure: true)
            Issue.record("a POST body went to plain http")
        } catch {
            #expect(error.kind == .insecureRedirect)
        }
        // 303 turns a POST into a GET without its body: allowed once insecure redirects are.
        #expect(try redirect(303, to: "http://api.example.com/x", method: .post, allowsInsecure: true)?.dropsBody == true)
    }

    @Test("a Location with a port outside 1–65535 is an invalid response", arguments: ["99999", "0", "65536", "4294967297"])
    func ports(port: String) {
        do {
            _ = try redirect(302, to: "https://api.example.com:\(port)/x")
            Issue.record("port \(port) accepted")
        } catch {
            #expect(error.kind == .invalidResponse)
        }
    }
}
