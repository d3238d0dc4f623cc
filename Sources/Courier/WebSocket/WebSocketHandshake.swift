import Foundation
import HTTPTypes

/// The server's answer to a WebSocket handshake.
public struct WebSocketHandshake: Sendable {
    /// The status and header fields: 101 when the socket opened.
    public var response: HTTPResponse
    /// The body of a refusal (at most 64 KiB); empty for a 101.
    public var body: Data
    /// The open socket, when the server answered 101 with a valid `Sec-WebSocket-Accept`.
    public var connection: (any WebSocketTransportConnection)?

    /// An answer.
    /// - Parameters:
    ///   - response: Status and header fields.
    ///   - body: The body of a refusal.
    ///   - connection: The open socket, for a 101.
    public init(response: HTTPResponse, body: Data = Data(), connection: (any WebSocketTransportConnection)? = nil) {
        self.response = response
        self.body = body
        self.connection = connection
    }
}
