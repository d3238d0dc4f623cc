@testable import Courier
import CourierTesting
import Foundation
import Logging
import TestSupport
import Testing

@Suite("Logs hide every common credential name, and the authentication scheme's own field")
struct RedactionTests {
    @Test("short secret query names are hidden; ordinary ones are not", arguments: ["sig", "key", "auth", "pwd", "code", "jwt"])
    func queryNames(name: String) {
        let target = Redaction.default.redact(target: "/x?page=2&\(name)=SECRET&author=ada")
        #expect(target == "/x?page=2&\(name)=<redacted>&author=ada")
    }

    @Test("credential-looking headers are hidden", arguments: ["X-Access-Key", "X-Auth", "X-API-Key", "X-Auth-Token", "X-Session-Token"])
    func headers(name: String) throws {
        let field = try #require(HTTPField.Name(name))
        let redacted = Redaction.default.redact([field: "SECRET", .accept: "application/json"])
        #expect(redacted[field] == Redaction.placeholder)
        #expect(redacted[.accept] == "application/json")
    }

    @Test("secret body fields are hidden, nested ones too")
    func bodyFields() {
        let json = Data(#"{"pin":"1","otp":"2","pass":"3","cvv":"4","card_number":"5","private_key":"6","auth":{"key":"7"},"name":"Ada"}"#.utf8)
        let text = Redaction.default.redact(body: json, contentType: "application/json")
        for secret in ["\"1\"", "\"2\"", "\"3\"", "\"4\"", "\"5\"", "\"6\"", "\"7\""] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(text.contains(#""name":"Ada""#))
    }

    @Test("the curl line hides a token sent with .header(name) or .query(name)")
    func schemeFields() async throws {
        for scheme in [AuthenticationScheme.header(HTTPField.Name("X-Custom-Session")!), .query("session_handle_x")] {
            let lines = LockedBox<[String]>([])
            var logger = Logger(label: "test") { _ in LogCapture(lines: lines) }
            logger.logLevel = .debug
            let tokens = AuthenticationSession(store: InMemoryTokenStore(AuthTokens(accessToken: "TOKEN-VALUE"))) { $0 }
            let client = Client(baseURL: "https://api.example.com", transport: StubTransport.scripted([.status(200, body: "{}")])) {
                $0.middleware = [AuthenticationMiddleware(tokens, scheme: scheme), LoggingMiddleware(logger: logger)]
            }
            let _: JSONValue = try await client.send(Request(.get, "me"))
            #expect(!lines.value.isEmpty)
            for line in lines.value {
                #expect(!line.contains("TOKEN-VALUE"), "\(line)")
            }
        }
    }

    @Test("metric labels carry the endpoint's template, not its path values")
    func metricLabels() {
        let prepared = try? RequestBuilder.prepare(
            Request<Void>(.post, "password-reset/\("PATHSECRET-4001")").request,
            configuration: Configuration(baseURL: "https://api.example.com")
        )
        #expect(prepared?.name == "POST password-reset/{}")
    }
}
