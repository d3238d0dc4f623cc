import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ClientTransport where Self == URLSessionTransport {
    /// The URLSession transport from swift-openapi-urlsession: Courier's default on every platform.
    ///
    /// On Linux, URLSession buffers whole bodies and scales to about 16 requests in flight; for
    /// servers and command-line tools there, prefer the AsyncHTTPClient transport from the
    /// `CourierAsyncHTTPClient` product.
    /// - Parameter session: The session to send with; `URLSession.shared` by default.
    /// - Returns: A transport for ``Client``.
    public static func urlSession(_ session: URLSession = .shared) -> URLSessionTransport {
        URLSessionTransport(configuration: .init(session: session))
    }
}
