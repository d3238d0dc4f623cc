import Courier

/// The auth backend's calls.
public enum AuthAPI {
    struct Credentials: Encodable, Sendable {
        var email: String
        var password: String
    }

    struct RefreshRequest: Encodable, Sendable {
        var refresh_token: String
    }

    /// `POST authenticate {email, password}`. Refused before any traffic, with
    /// "Email and Password Required", when either is empty.
    public static func authenticate(email: String, password: String) -> Request<AuthSession> {
        Request(.post, "authenticate", body: .json(Credentials(email: email, password: password)))
            .requiring(!email.isEmpty && !password.isEmpty, "Email and Password Required")
            .withoutAuthentication()
    }

    /// `GET token`: checks the access token the client sends.
    public static var checkToken: Request<TokenStatus> {
        Request(.get, "token")
    }

    /// `POST token/refresh {refresh_token}`: a new session for a refresh token.
    public static func refresh(refreshToken: String) -> Request<AuthSession> {
        Request(.post, "token/refresh", body: .json(RefreshRequest(refresh_token: refreshToken)))
            .withoutAuthentication()
    }

    /// `POST logout`: revokes the access token the client sends.
    public static var logout: Request<Void> {
        Request(.post, "logout")
    }
}
