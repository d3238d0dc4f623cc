/// What the reference server saw of one request when it arrived, before any route or fault ran:
/// the server's own record of the protocol and the connection a call used.
public struct RequestRecord: Sendable, Equatable {
    /// `HTTP/1.1`, or `HTTP/2.0` for a stream of an HTTP/2 connection (as nginx's
    /// `$server_protocol` names them).
    public let httpVersion: String
    /// The method, e.g. `GET`.
    public let method: String
    /// The path with its query, as sent.
    public let target: String
    /// The connection it came on: requests on one connection have the same value while it is open.
    public let connection: ObjectIdentifier
}
