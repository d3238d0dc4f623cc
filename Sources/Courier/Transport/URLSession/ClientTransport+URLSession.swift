import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ClientTransport where Self == SessionTransport {
    /// The URLSession transport: Courier's default on every platform.
    ///
    /// On Linux, URLSession scales to about 16 requests in flight; for servers and command-line
    /// tools there, prefer the AsyncHTTPClient transport from the `CourierAsyncHTTPClient` product.
    /// - Parameter session: The session to send with; `URLSession.courierShared` by default.
    /// - Returns: A transport for ``Client``.
    public static func urlSession(_ session: URLSession = .courierShared) -> SessionTransport {
        SessionTransport(session: session)
    }
}
