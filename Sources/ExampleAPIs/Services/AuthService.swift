import Courier
import Foundation
import HTTPTypes

/// Log in, check the token, log out. The tokens live in an ``AuthenticationSession`` that every
/// client of the same identity shares through its ``AuthenticationMiddleware``: the access token is
/// added to each request, and renewed once (single flight) when the server says it expired.
///
/// ```swift
/// let auth = AuthService(client: .auth(environment: env))
/// let social = Client.social(environment: env, session: auth.session)
/// try await auth.authenticate(email: "", password: "x")   // throws .invalidRequest: "Email and Password Required"
/// let session = try await auth.authenticate(email: email, password: password)
/// ```
public struct AuthService: Sendable {
    /// The auth backend's client.
    public let client: Client
    /// The signed-in user's tokens, renewed through `POST token/refresh`.
    public let session: AuthenticationSession

    /// Creates the service and adds the session's middleware to `client`.
    /// - Parameters:
    ///   - client: The auth backend's client.
    ///   - store: Where tokens are kept; in memory by default.
    public init(client: Client, store: any TokenStore = InMemoryTokenStore()) {
        self.client = client
        self.session = AuthenticationSession(store: store) { [client] expired in
            try await client.send(AuthAPI.refresh(refreshToken: expired.refreshToken ?? "")).tokens
        }
        client.configuration.middleware.insert(AuthenticationMiddleware(session, scheme: .jwt), at: 0)
    }

    /// Logs in. Both fields are checked locally first: an empty one fails with
    /// ``CourierError/Kind/invalidRequest`` ("Email and Password Required") and sends nothing.
    /// - Returns: The session; its token is now sent by every client sharing ``session``.
    /// - Throws: ``CourierError``; `.unauthorized` with the server's message for wrong credentials.
    @discardableResult
    public func authenticate(email: String, password: String) async throws(CourierError) -> AuthSession {
        let login = try await client.send(AuthAPI.authenticate(email: email, password: password))
        do {
            try session.signIn(login.tokens)
        } catch {
            throw CourierError(.invalidRequest, message: "The tokens could not be stored: \(error.localizedDescription)")
        }
        return login
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
    /// - Throws: ``CourierError``; `.unauthorized` when it expired and could not be renewed.
    public func checkToken() async throws(CourierError) -> TokenStatus {
        try await client.send(AuthAPI.checkToken)
    }

    /// Revokes the access token and forgets the tokens.
    public func logout() async throws(CourierError) {
        defer { try? session.signOut() }
        try await client.send(AuthAPI.logout)
    }
}

extension AuthSession {
    /// The session's tokens for an ``AuthenticationSession``.
    public var tokens: AuthTokens {
        AuthTokens(accessToken: token, refreshToken: refreshToken, expiresAt: Date().addingTimeInterval(TimeInterval(expiresIn)))
    }
}
