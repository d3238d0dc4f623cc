/// Which deployment of the backends the app talks to: production, staging, QA, or a custom host.
///
/// The app keeps one environment and gives it to every client; each ``Backend`` knows its URL in
/// each environment, so switching here moves every endpoint of every backend at once.
///
/// ```swift
/// let environment: ServerEnvironment = isDebugBuild ? .staging : .production
/// let movies = Client(backend: .movies, environment: environment)
/// ```
public struct ServerEnvironment: Sendable, Hashable, CustomStringConvertible {
    enum Target: Sendable, Hashable {
        case named(String)
        case origin(BaseURL)
    }

    let target: Target

    /// The live backends.
    public static let production = ServerEnvironment(target: .named("production"))
    /// The staging backends.
    public static let staging = ServerEnvironment(target: .named("staging"))
    /// The QA backends.
    public static let qa = ServerEnvironment(target: .named("qa"))

    /// Another named deployment; each backend lists its URL for it with
    /// ``Backend/init(_:production:staging:qa:others:)``.
    /// - Parameter name: The deployment's name, e.g. `"preview"`.
    public static func named(_ name: String) -> ServerEnvironment {
        ServerEnvironment(target: .named(name))
    }

    /// Every backend at one scheme, host and port, keeping each backend's own base path — for a
    /// local server or a tunnel (`.custom("http://127.0.0.1:8080")` sends the movie backend's
    /// `/3/movie/popular` to `http://127.0.0.1:8080/3/movie/popular`).
    /// - Parameter origin: Scheme, host and optional port.
    public static func custom(_ origin: BaseURL) -> ServerEnvironment {
        ServerEnvironment(target: .origin(origin))
    }

    /// The environment's name, or its origin for a custom one.
    public var description: String {
        switch target {
        case .named(let name): name
        case .origin(let origin): origin.text
        }
    }
}
