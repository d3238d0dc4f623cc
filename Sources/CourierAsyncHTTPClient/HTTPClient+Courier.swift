// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore
import NIOHTTPCompression
import NIOPosix

extension HTTPClient {
    /// The `HTTPClient` Courier uses unless given another: created on first use, shared by every
    /// client in the process, never shut down. Configured by ``courierConfiguration()``.
    public static let courierShared = HTTPClient(
        eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
        configuration: courierConfiguration()
    )

    /// AsyncHTTPClient's configuration as Courier needs it.
    ///
    /// - Connections that cannot be established fail at once (no retry until the deadline), so an
    ///   offline device or a refused port gives ``Courier/CourierError/Kind/notConnected`` within
    ///   the 5-second connect timeout instead of hanging for a minute.
    /// - Up to 64 HTTP/1.1 connections per host, kept for 60 s; HTTP/2 when the server offers it.
    /// - Redirects are not followed by AsyncHTTPClient: Courier decides about them.
    /// - AsyncHTTPClient makes no spans of its own (its span records the full URL, query included):
    ///   ``Courier/TracingMiddleware`` traces each exchange.
    /// - Responses compressed with gzip or deflate are decoded (requests say so with
    ///   `Accept-Encoding: deflate, gzip`); a body that inflates more than a thousandfold fails with
    ///   ``Courier/CourierError/Kind/responseTooLarge``, and the client's
    ///   ``Courier/Configuration/maximumResponseBodySize`` counts decoded bytes.
    /// - Returns: A configuration to adjust and pass to `HTTPClient(eventLoopGroup:configuration:)`.
    public static func courierConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.timeout.connect = .seconds(5)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        configuration.redirectConfiguration = .disallow
        configuration.httpVersion = .automatic
        configuration.decompression = .enabled(limit: .ratio(1_000))
        // Courier's `TracingMiddleware` makes the client spans, naming the URL by its template:
        // AsyncHTTPClient's own span would record the full URL and its query, where API keys travel.
        configuration.tracing.tracer = nil
        return configuration
    }
}
#endif
