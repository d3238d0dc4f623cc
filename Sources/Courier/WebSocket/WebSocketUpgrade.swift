import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What makes an exchange a WebSocket handshake: where a call's exchange sends its request
/// through ``Transport/send(_:)``, the handshake's opens a socket through the transport's
/// ``WebSocketTransport``. Everything before that is the route every call takes: the middleware,
/// the attempt (its deadline, ``Client/cancelAll()``, the per-host limit, cookies both ways) and
/// the exchange's checks (``Configuration/hostsRequiringPins``).
struct WebSocketUpgrade: Sendable {
    let opener: any WebSocketTransport
    /// The socket's limits.
    let configuration: WebSocketConfiguration
    /// How long the connection and the handshake may take.
    let timeout: Duration
    /// The socket the last handshake opened: a middleware that sends the handshake again (a
    /// refreshed token) leaves only the last one open.
    private let opened = LockedState<(any WebSocketTransportConnection)?>(nil)

    init(opener: any WebSocketTransport, configuration: WebSocketConfiguration, timeout: Duration) {
        self.opener = opener
        self.configuration = configuration
        self.timeout = timeout
    }

    /// The socket the last handshake opened, if the server answered 101.
    var connection: (any WebSocketTransportConnection)? {
        opened.withLock { $0 }
    }

    /// Sends the handshake `request` to `origin`, ended early by `interruption`.
    /// - Returns: The server's answer, with a refusal's body (at most 64 KiB).
    /// - Throws: The transport's errors.
    nonisolated(nonsending) func open(_ request: HTTPRequest, origin: URL, interruption: ExchangeInterruption) async throws -> TransportResponse {
        let open = WebSocketOpenRequest(
            request: request,
            origin: origin,
            timeout: timeout,
            maximumFrameSize: configuration.maximumFrameSize,
            maximumMessageSize: configuration.maximumMessageSize
        )
        let (opener, opened) = (self.opener, self.opened)
        let handshake = try await interruption.run {
            let handshake = try await opener.openWebSocket(open)
            // Kept before anyone waits for it: a caller that left (its deadline) still has it closed.
            let earlier = opened.withLock { opened in
                defer { opened = handshake.connection }
                return opened
            }
            if let earlier { await earlier.close(.goingAway, reason: "") }
            return handshake
        }
        return TransportResponse(response: handshake.response, body: handshake.body.isEmpty ? nil : HTTPBody(handshake.body))
    }

    /// Closes the socket a handshake opened, if any (1001): the call failed after it opened.
    func closeOpened() async {
        let connection = opened.withLock { opened in
            defer { opened = nil }
            return opened
        }
        await connection?.close(.goingAway, reason: "")
    }
}
