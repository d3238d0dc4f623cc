/// One backend (an API server) and its base URL in each ``ServerEnvironment``.
///
/// ```swift
/// extension Backend {
///     static let movies = Backend(
///         "movies",
///         production: "https://api.themoviedb.org/3",
///         staging: "https://staging.api.themoviedb.org/3",
///         qa: "https://qa.api.themoviedb.org/3"
///     )
/// }
/// ```
public struct Backend: Sendable, Hashable {
    /// A name for logs and errors.
    public var name: String
    /// The base URL per environment name.
    public var baseURLs: [String: BaseURL]

    /// Describes a backend.
    /// - Parameters:
    ///   - name: A name for logs and errors.
    ///   - production: The live base URL.
    ///   - staging: The staging base URL, if there is one.
    ///   - qa: The QA base URL, if there is one.
    ///   - others: Base URLs for other named environments.
    public init(
        _ name: String,
        production: BaseURL,
        staging: BaseURL? = nil,
        qa: BaseURL? = nil,
        others: [String: BaseURL] = [:]
    ) {
        self.name = name
        var urls = others
        urls["production"] = production
        urls["staging"] = staging
        urls["qa"] = qa
        self.baseURLs = urls
    }

    /// The base URL in `environment`.
    ///
    /// For a named environment the backend must list it; for a custom origin, the origin replaces
    /// the production URL's scheme, host and port and the production path is kept. When there is no
    /// URL, every request through it fails with ``CourierError/Kind/invalidRequest`` saying why.
    public func baseURL(in environment: ServerEnvironment) -> BaseURL {
        switch environment.target {
        case .named(let environmentName):
            return baseURLs[environmentName]
                ?? BaseURL(unavailable: "The \(name) backend has no base URL for the \(environmentName) environment.")
        case .origin(let origin):
            do {
                let originParts = try origin.parts()
                let path = try baseURLs["production"]?.parts().path ?? ""
                return BaseURL("\(originParts.scheme)://\(originParts.authority)\(originParts.path)\(path)")
            } catch {
                return BaseURL(unavailable: error.message ?? "The \(name) backend's custom origin is not usable.")
            }
        }
    }
}
