import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport

/// The example services' clients for the reference server's backends.
extension ReferenceBackends {
    var environment: ServerEnvironment { .custom(BaseURL(server.baseURL)) }

    func social() -> Client { .social(environment: environment, transport: transport) }
    func movies(apiKey: String? = nil) -> Client {
        .movies(environment: environment, apiKey: apiKey ?? server.movieAPIKey, transport: transport)
    }
    func auth() -> Client { .auth(environment: environment, apiVersion: "7", deviceType: "tests", transport: transport) }
    func analytics() -> Client {
        .analytics(environment: .custom(BaseURL(server.analyticsBaseURL)), appID: "tests", transport: transport)
    }
    /// A client for the `/echo` route that answers with what it received.
    func echo(configure: (inout Configuration) -> Void = { _ in }) -> Client {
        Client(baseURL: BaseURL("\(server.baseURL)/echo"), transport: transport, configure: configure)
    }

    /// A social client whose requests carry the demo user's token.
    func loggedInSocial() async throws -> Client {
        let auth = AuthService(client: auth())
        try await auth.authenticate(email: ReferenceServer.demoCredentials.email, password: ReferenceServer.demoCredentials.password)
        return Client.social(environment: environment, session: auth.session, transport: transport)
    }
}

/// What `/echo` reports about the request it received.
struct Echo: Decodable, Sendable {
    var method: String
    var path: String
    var raw_query: String?
    var query: [[String]]
    var headers: [[String]]
    var content_type: String?
    var body_size: Int
    var body_text: String?
    var form: [[String]]?
    var multipart: [Part]?

    struct Part: Decodable, Sendable, Equatable {
        var name: String?
        var filename: String?
        var content_type: String?
        var size: Int
        var text: String?
    }

    func header(_ name: String) -> String? {
        headers.first { $0.first == name.lowercased() }?.last
    }
}

/// The most a step that normally takes well under a second may take before a test calls it a hang.
/// Generous, because CI machines are slower and busier than a laptop (a 1-second timeout has been seen
/// to end after 3.9 s there, with every suite running at once); each test using it makes the slow
/// alternative (a server delay of 30 s, a client timeout of 20 s) take longer still, so a hang or a
/// lost cancellation cannot pass for a slow machine.
let hangBound: Duration = .seconds(15)

/// The time `body` takes.
func measure<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
}
