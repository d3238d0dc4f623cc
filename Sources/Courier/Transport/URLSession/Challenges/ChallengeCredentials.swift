/// What Courier's URLSession delegate may answer an authentication challenge with; a server's
/// request for a password (its 401) is never among them, since Courier's middleware answers it.
struct ChallengeCredentials: Sendable {
    /// Presented when a server asks for a client certificate.
    var clientCertificate: (any SessionClientCertificate)?
    /// Given, once, to a proxy that asks for credentials (its 407).
    var proxy: ProxyCredentials?
}
