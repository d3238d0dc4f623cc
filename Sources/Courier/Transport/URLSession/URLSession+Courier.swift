import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// The session Courier's URLSession transport uses unless given another: Courier's
    /// configuration (``courierConfiguration()``) and a delegate that leaves redirects to Courier,
    /// so that credentials never follow a redirect to another origin, and answers 401 challenges
    /// at once. Created on first use and kept for the process.
    public static let courierShared = SessionDelegate().session(configuration: courierConfiguration())

    /// `URLSessionConfiguration.default` as Courier needs it.
    ///
    /// - No `URLCache`: a response is never served from, or kept in, a cache the app did not ask
    ///   for (on Linux the shared cache also grew resident memory by about 150 bytes per request).
    /// - No cookie storage and no credential storage: cookies follow the client's
    ///   ``Configuration/cookieJar`` on every transport, credentials its middleware; nothing is
    ///   written to disk.
    /// - Up to 64 connections per host, as the AsyncHTTPClient transport keeps (URLSession's
    ///   default is 6).
    /// - Returns: A configuration to adjust and pass to `URLSession(configuration:delegate:delegateQueue:)`.
    public static func courierConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = 64
        return configuration
    }
}
