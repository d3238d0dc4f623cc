import Foundation
import HTTPTypes

/// A successful call's decoded value together with how it arrived: the status, the header fields,
/// the URL after redirects, the number of attempts and where it came from.
///
/// ```swift
/// let response = try await movies.response(for: MovieAPI.popular(page: 1))
/// let page = response.value
/// let etag = response.headerFields[.eTag]
/// ```
public struct DecodedResponse<Value: Sendable>: Sendable {
    /// The decoded body: what ``Client/send(_:)`` returns.
    public var value: Value
    /// The response status (2xx).
    public var status: HTTPResponse.Status
    /// The response header fields: `ETag`, `Link`, `Location`, rate-limit fields, ….
    public var headerFields: HTTPFields
    /// The URL the response came from, after any redirects.
    public var url: URL
    /// How many attempts the call made: 1 unless ``RetryMiddleware`` tried again.
    public var attempts: Int
    /// Where the response came from: ``ResponseSource/network`` unless a middleware answered from
    /// a cache.
    public var source: ResponseSource
    /// The version of HTTP that carried the response; ``HTTPProtocolVersion/unknown`` when the transport
    /// does not say or the response came from a cache.
    public var httpVersion: HTTPProtocolVersion
    /// When the stages of the exchange that produced the response happened (its last, after
    /// redirects and retries); `nil` for a response from the cache alone.
    public var timings: ExchangeTimings?

    /// Creates a response.
    /// - Parameters:
    ///   - value: The decoded body.
    ///   - status: The status.
    ///   - headerFields: The header fields.
    ///   - url: The URL after redirects.
    ///   - attempts: How many attempts were made.
    ///   - source: Where the response came from; the network by default.
    ///   - httpVersion: The version of HTTP that carried it; unknown by default.
    ///   - timings: The exchange's timings, if one took place.
    public init(
        value: Value,
        status: HTTPResponse.Status,
        headerFields: HTTPFields,
        url: URL,
        attempts: Int,
        source: ResponseSource = .network,
        httpVersion: HTTPProtocolVersion = .unknown,
        timings: ExchangeTimings? = nil
    ) {
        self.httpVersion = httpVersion
        self.timings = timings
        self.value = value
        self.status = status
        self.headerFields = headerFields
        self.url = url
        self.attempts = attempts
        self.source = source
    }
}
