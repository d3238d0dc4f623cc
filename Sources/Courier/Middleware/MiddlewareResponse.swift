import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What the rest of a middleware chain returns: the response, its body, and the facts of how it
/// was obtained (the URL after redirects, the attempts made, where it came from).
///
/// Facts travel back with the response through every middleware, outermost last: a middleware
/// reads them from what `next` returns, and may return its own (a cache answering without
/// calling `next` says ``ResponseSource/cache``).
///
/// ```swift
/// let result = try await next(request, body, context)
/// if result.attempts > 1 { logger.info("\(result.url) took \(result.attempts) attempts") }
/// return result
/// ```
public struct MiddlewareResponse: Sendable {
    /// Where the response came from, kept as the transport gave it until someone asks for the URL.
    private enum Location: Sendable {
        case url(URL)
        case target(origin: URL, path: String?)
    }

    /// Status and header fields.
    public var response: HTTPResponse
    /// The body: already read into memory (up to the size limit) unless the call streams it or
    /// writes it to a file.
    public var body: HTTPBody?
    /// How many attempts the call made up to this response: 1, more when a middleware (such as
    /// ``RetryMiddleware``) or the transport itself sent the request again.
    public var attempts: Int
    /// Where the response came from: the network, a cache, or a cache after revalidation.
    public var source: ResponseSource
    /// The version of HTTP that carried the response; ``HTTPProtocolVersion/unknown`` when the transport
    /// does not say or nothing went over the network.
    public var httpVersion: HTTPProtocolVersion
    /// When the stages of the exchange that produced the response happened; `nil` when no
    /// exchange did (a cache's answer).
    public var timings: ExchangeTimings?
    private var location: Location

    /// Creates the result of a chain.
    /// - Parameters:
    ///   - response: Status and header fields.
    ///   - body: The body, if any.
    ///   - url: The URL the response came from, after any redirects.
    ///   - attempts: How many attempts were made; 1 by default.
    ///   - source: Where the response came from; the network by default.
    ///   - httpVersion: The version of HTTP that carried it; unknown by default.
    ///   - timings: The exchange's timings, if one took place.
    public init(
        response: HTTPResponse,
        body: HTTPBody?,
        url: URL,
        attempts: Int = 1,
        source: ResponseSource = .network,
        httpVersion: HTTPProtocolVersion = .unknown,
        timings: ExchangeTimings? = nil
    ) {
        self.response = response
        self.body = body
        self.attempts = attempts
        self.source = source
        self.httpVersion = httpVersion
        self.timings = timings
        self.location = .url(url)
    }

    /// A response from the network for the request target `path` below `origin`.
    init(response: TransportResponse, origin: URL, path: String?, attempts: Int) {
        self.response = response.response
        self.body = response.body
        self.attempts = attempts
        self.source = .network
        self.httpVersion = response.httpVersion
        self.timings = response.timings
        self.location = .target(origin: origin, path: path)
    }

    /// The URL the response came from, after any redirects.
    public var url: URL {
        get {
            switch location {
            case .url(let url): url
            case .target(let origin, let path): URL(string: origin.absoluteString + (path ?? "/")) ?? origin
            }
        }
        set { location = .url(newValue) }
    }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }

    /// The response header fields.
    public var headerFields: HTTPFields { response.headerFields }

    /// Whether the response came from `origin` (same scheme, host and port).
    func isFrom(_ origin: URL) -> Bool {
        switch location {
        case .url(let url): Redirect.sameOrigin(url, origin)
        case .target(let answered, _): Redirect.sameOrigin(answered, origin)
        }
    }
}
