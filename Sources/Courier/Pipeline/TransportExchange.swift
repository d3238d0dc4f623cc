import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One request and its response through the transport, the response body delivered as the call
/// asked: read into memory, written to a file, or handed over unread.
///
/// This is the innermost step of every call (``Attempt`` runs it once per redirect hop): one
/// ``Transport/send(_:)``, then the check that the body comes in a coding the transport decodes.
struct TransportExchange: Sendable {
    let transport: any Transport
    /// The codings the transport decodes, read once per client.
    let contentCodings: Set<ContentCoding>
    /// How the response body is wanted.
    let delivery: ResponseBodyDelivery
    /// Receives upload and download progress, when the caller asked for it.
    let progress: (@Sendable (TransferProgress) -> Void)?
    /// Hosts that must be pinned and that the transport does not pin: never sent to.
    var unpinnedHosts: Set<String> = []
    /// For a WebSocket handshake: the socket opened where a call's request would be sent.
    var upgrade: WebSocketUpgrade?

    /// Sends `request` to `origin` and delivers its response body.
    /// - Parameters:
    ///   - payload: The body, if any.
    ///   - isCachedByClient: Whether the client's own cache handles the request.
    ///   - interruption: What ends the exchange early, for the transport to obey.
    /// - Returns: The transport's response: the body in memory, unread for a successful stream,
    ///   or `nil` when a successful body went to a file.
    /// - Throws: The transport's errors; ``CourierError/Kind/invalidResponse`` for a body in a
    ///   coding the transport does not decode.
    nonisolated(nonsending) func send(
        _ request: HTTPRequest,
        payload: RequestPayload?,
        origin: URL,
        name: String,
        isCachedByClient: Bool,
        interruption: ExchangeInterruption
    ) async throws -> TransportResponse {
        if !unpinnedHosts.isEmpty, let host = origin.host?.lowercased(), unpinnedHosts.contains(host) {
            throw CourierError(
                .untrustedServer,
                message: "\(host) must be reached over a pinned connection (Configuration.hostsRequiringPins), and this transport pins "
                    + "no keys for it: give the transport a ServerTrust with pins for \(host). Nothing was sent."
            )
        }
        if let upgrade {
            return try await upgrade.open(request, origin: origin, interruption: interruption)
        }
        var transportRequest = TransportRequest(
            request: request,
            payload: payload,
            origin: origin,
            name: name,
            delivery: delivery,
            progress: progress
        )
        transportRequest.isCachedByClient = isCachedByClient
        transportRequest.interruption = interruption
        let stopwatch = ExchangeStopwatch()
        var response = try await transport.send(transportRequest)
        if response.timings == nil {
            // What Courier sees from outside: the head has arrived, and a body not streamed is whole.
            let now = ContinuousClock.now
            response.timings = stopwatch.timings(sent: nil, firstByte: now, end: delivery.streams(response.response) ? nil : now)
        }
        if let refusal = ContentCoding.refusal(of: response.response, to: request, decoded: contentCodings) {
            throw refusal
        }
        return response
    }
}
