import Courier
import Foundation
import TestSupport
import Testing

/// A value holding secrets, built fresh for each test.
struct SecretHolder: Sendable, CustomTestStringConvertible {
    let name: String
    let make: @Sendable () throws -> Any

    var testDescription: String { name }
}

@Suite("Reflection hygiene: dump(), Mirror and String(reflecting:) never show a secret")
struct ReflectionHygieneTests {
    static let secret = "s3cret-7f2c9a"
    static let otherSecret = "0ther-s3cret-41d8"

    /// The secrets as they are written, and as Basic credentials and base64 would carry them.
    static let forbidden: [String] = [
        secret, otherSecret,
        Data(secret.utf8).base64EncodedString(), Data("ada:\(secret)".utf8).base64EncodedString(),
    ]

    static func jar() throws -> CookieJar {
        let jar = CookieJar()
        let url = try #require(URL(string: "https://api.example.com/"))
        jar.store(from: [.setCookie: "session=\(secret); Path=/; Secure"], for: url)
        #expect(jar.cookies.count == 1)
        return jar
    }

    static func session() throws -> AuthenticationSession {
        let session = AuthenticationSession { _ in AuthTokens(accessToken: otherSecret) }
        try session.signIn(AuthTokens(accessToken: secret, refreshToken: otherSecret, expiresAt: Date(timeIntervalSince1970: 2_000_000_000)))
        return session
    }

    static func configuration() throws -> Configuration {
        var configuration = Configuration(baseURL: "https://api.example.com/v1")
        configuration.commonParameters = commonParameters()
        configuration.cookieJar = try jar()
        configuration.middleware = [
            AuthenticationMiddleware(try session()),
            BasicAuthenticationMiddleware(username: "ada", password: otherSecret),
        ]
        return configuration
    }

    static func commonParameters() -> CommonParameters {
        var parameters = CommonParameters()
        parameters.query["api_key"] = secret
        parameters.query["device_type"] = "ios"
        parameters.headerFields[HTTPField.Name("X-API-Key")!] = otherSecret
        parameters.headerFields[.acceptLanguage] = "fr"
        parameters.bodyFields["client_secret"] = .string(secret)
        return parameters
    }

    static let holders: [SecretHolder] = [
        SecretHolder(name: "ClientIdentity.pem") { ClientIdentity.pem(certificateChain: "-----BEGIN CERTIFICATE-----", privateKey: secret) },
        SecretHolder(name: "ClientIdentity.pkcs12") { ClientIdentity.pkcs12(Data(secret.utf8), passphrase: otherSecret) },
        SecretHolder(name: "ProxyCredentials") { ProxyCredentials(username: "ada", password: secret) },
        SecretHolder(name: "Proxy") {
            Proxy.http(host: "proxy.corp.example", port: 3128, credentials: ProxyCredentials(username: "ada", password: secret)).bypassing(["localhost"])
        },
        SecretHolder(name: "AuthTokens") { AuthTokens(accessToken: secret, refreshToken: otherSecret) },
        SecretHolder(name: "Cookie") { try #require(try jar().cookies.first) },
        SecretHolder(name: "CookieJar") { try jar() },
        SecretHolder(name: "AuthenticationSession") { try session() },
        SecretHolder(name: "InMemoryTokenStore") { InMemoryTokenStore(AuthTokens(accessToken: secret, refreshToken: otherSecret)) },
        SecretHolder(name: "AuthenticationMiddleware") { AuthenticationMiddleware(try session(), scheme: .query("access_token")) },
        SecretHolder(name: "BasicAuthenticationMiddleware") { BasicAuthenticationMiddleware(username: "ada", password: secret) },
        SecretHolder(name: "CommonParameters") { commonParameters() },
        SecretHolder(name: "Configuration") { try configuration() },
        SecretHolder(name: "Client") { Client(configuration: try configuration()) },
    ]

    @Test("a value holding a secret shows none of it to reflection", arguments: holders)
    func hidden(_ holder: SecretHolder) throws {
        let text = reflectedText(of: try holder.make())
        for secret in Self.forbidden {
            #expect(!text.contains(secret), "\(holder.name) shows \(secret):\n\(text)")
        }
    }

    @Test("what is not secret stays visible to reflection")
    func visible() throws {
        let proxy = reflectedText(of: Proxy.http(host: "proxy.corp.example", port: 3128, credentials: ProxyCredentials(username: "ada", password: Self.secret)))
        #expect(proxy.contains("proxy.corp.example") && proxy.contains("3128") && proxy.contains("ada"))
        let cookie = reflectedText(of: try #require(try Self.jar().cookies.first))
        #expect(cookie.contains("session") && cookie.contains("api.example.com") && cookie.contains("<redacted>"))
        let tokens = reflectedText(of: AuthTokens(accessToken: Self.secret, expiresAt: Date(timeIntervalSince1970: 0)))
        #expect(tokens.contains("1970") && tokens.contains("<redacted>"))
        let parameters = reflectedText(of: Self.commonParameters())
        #expect(parameters.contains("device_type") && parameters.contains("ios") && parameters.contains("api_key") && parameters.contains("fr"))
        let session = reflectedText(of: try Self.session())
        #expect(session.contains("signedIn: true"))
    }
}
