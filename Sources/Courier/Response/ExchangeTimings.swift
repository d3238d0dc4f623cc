import Foundation

/// When each stage of the exchange that produced a response happened, and how its connection
/// was made: what URLSession's task metrics and OkHttp's event listener give, in one shape for
/// every transport.
///
/// ```swift
/// let response = try await movies.response(for: MovieAPI.popular(page: 1))
/// if let timings = response.timings, let firstByte = timings.responseStarted {
///     print("first byte after \(firstByte), reused: \(timings.reusedConnection.map(String.init) ?? "?")")
/// }
/// ```
/// The stages are measured from ``startDate``, when the request was handed to the transport (for
/// a redirected or retried call: its last exchange), in order: ``requestSent`` ≤
/// ``responseStarted`` ≤ ``responseEnded``. A stage the transport does not report is `nil`; the
/// Transports article lists what each transport gives. ``responseEnded`` is `nil` for a body
/// still streaming (``Client/stream(_:progress:)``).
public struct ExchangeTimings: Sendable, Hashable {
    /// When the request was handed to the transport, by the wall clock.
    public var startDate: Date
    /// When the request, body included, was written to the connection.
    public var requestSent: Duration?
    /// When the response's head arrived (its first byte, as near as the transport tells).
    public var responseStarted: Duration?
    /// When the response's body had arrived whole.
    public var responseEnded: Duration?
    /// How long the host name took to resolve, when a new connection was made.
    public var domainLookup: Duration?
    /// How long the connection took to establish, TLS included, when a new one was made.
    public var connect: Duration?
    /// How long the TLS handshake took, when a new connection was made.
    public var secureConnection: Duration?
    /// Whether the exchange went over a connection kept from an earlier one; `nil` when the
    /// transport does not say.
    public var reusedConnection: Bool?

    /// Creates timings.
    /// - Parameters:
    ///   - startDate: When the request was handed to the transport.
    ///   - requestSent: When the request was written, after the start.
    ///   - responseStarted: When the response's head arrived, after the start.
    ///   - responseEnded: When the response's body had arrived, after the start.
    ///   - domainLookup: How long name resolution took.
    ///   - connect: How long connecting took.
    ///   - secureConnection: How long the TLS handshake took.
    ///   - reusedConnection: Whether the connection was reused.
    public init(
        startDate: Date,
        requestSent: Duration? = nil,
        responseStarted: Duration? = nil,
        responseEnded: Duration? = nil,
        domainLookup: Duration? = nil,
        connect: Duration? = nil,
        secureConnection: Duration? = nil,
        reusedConnection: Bool? = nil
    ) {
        self.startDate = startDate
        self.requestSent = requestSent
        self.responseStarted = responseStarted
        self.responseEnded = responseEnded
        self.domainLookup = domainLookup
        self.connect = connect
        self.secureConnection = secureConnection
        self.reusedConnection = reusedConnection
    }

    /// The same, the body having arrived whole at `date` (by the wall clock, for a body read
    /// after the transport handed it over).
    func ended(at date: Date) -> ExchangeTimings {
        var ended = self
        let elapsed = Duration.seconds(date.timeIntervalSince(startDate))
        ended.responseEnded = max(elapsed, responseStarted ?? requestSent ?? .zero)
        return ended
    }
}
