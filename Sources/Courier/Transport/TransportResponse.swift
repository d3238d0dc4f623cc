import HTTPTypes
import OpenAPIRuntime

/// What a ``Transport`` returns for one request.
public struct TransportResponse: Sendable {
    /// Status and header fields.
    public var response: HTTPResponse
    /// The body as the request's ``ResponseBodyDelivery`` asked: in memory, unread (a streamed
    /// success), or `nil` (a success written to its file, or no body at all).
    public var body: HTTPBody?
    /// How many times the request went out: 1, or more when the transport sent it again by itself
    /// (AsyncHTTPClient resends an idempotent request once when a kept-alive connection turns out
    /// to be closed).
    public var attempts: Int
    /// The version of HTTP that carried the response, ``HTTPProtocolVersion/unknown`` when the transport
    /// cannot tell.
    public var httpVersion: HTTPProtocolVersion
    /// When the exchange's stages happened, as far as the transport saw them; `nil` lets Courier
    /// measure what it sees from outside (the start, and the end of `send`).
    public var timings: ExchangeTimings?

    /// Creates a transport's response.
    /// - Parameters:
    ///   - response: Status and header fields.
    ///   - body: The body, delivered as asked.
    ///   - attempts: How many times the request went out; 1 by default.
    ///   - httpVersion: The version of HTTP that carried the response; unknown by default.
    ///   - timings: The exchange's timings, when the transport measured them.
    public init(
        response: HTTPResponse,
        body: HTTPBody?,
        attempts: Int = 1,
        httpVersion: HTTPProtocolVersion = .unknown,
        timings: ExchangeTimings? = nil
    ) {
        self.response = response
        self.body = body
        self.attempts = attempts
        self.httpVersion = httpVersion
        self.timings = timings
    }
}
