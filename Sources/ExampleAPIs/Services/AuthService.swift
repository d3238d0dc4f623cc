import Courier
import HTTPTypes

/// Log in, check the token, log out. After login the access token becomes a common parameter
/// (`Authorization: JWT <token>`) of the auth client and of every client given in `authorizing`,
/// so no call ever adds it by hand.
///
/// ```swift
/// let auth = AuthService(client: .auth(environment: env), authorizing: [social])
/// try await auth.authenticate(email: "", password: "x")   // throws .invalidRequest: "Email and Password Required"
/// let session = try await auth.authenticate(email: email, password: password)
/// ```
public struct AuthService: Sendable {
    /// The auth backend's client.
    public let client: Client
    /// The other clients whose requests carry the access token.
    public let authorizedClients: [Client]

    /// Creates the service.
    /// - Parameters:
    ///   - client: The auth backend's client.
    ///   - authorizing: Clients that should send the access token once logged in.
    public init(client: Client, authorizing: [Client] = []) {
        self.client = client
        self.authorizedClients = authorizing
    }

    /// Logs in. Both fields are checked locally first: an empty one fails with
    /// ``CourierError/Kind/invalidRequest`` ("Email and Password Required") and sends nothing.
    /// - Returns: The session; its token is now sent by every authorized client.
    /// - Throws: ``CourierError``; `.unauthorized` with the server's message for wrong credentials.
    @discardableResult
    public func authenticate(email: String, password: String) async throws(CourierError) -> AuthSession {
        let session = try await client.send(AuthAPI.authenticate(email: email, password: password))
        setAuthorization("JWT \(session.token)")
        return session
    }

    /// Logs in, reporting on the main actor.
    /// - Returns: A handle that cancels the request.
    @discardableResult
    public func authenticate(
        email: String,
        password: String,
        completion: @escaping @MainActor @Sendable (Result<AuthSession, CourierError>) -> Void
    ) -> RequestHandle {
        RequestHandle.start({ try await self.authenticate(email: email, password: password) }, completion: completion)
    }

    /// Checks the current access token with the server.
    /// - Throws: ``CourierError``; `.unauthorized` when it expired or was never valid.
    public func checkToken() async throws(CourierError) -> TokenStatus {
        try await client.send(AuthAPI.checkToken)
    }

    /// Revokes the access token and stops sending it.
    public func logout() async throws(CourierError) {
        defer { setAuthorization(nil) }
        try await client.send(AuthAPI.logout)
    }

    private func setAuthorization(_ value: String?) {
        for client in [client] + authorizedClients {
            client.configuration.commonParameters.headerFields[.authorization] = value
        }
    }
}
