/// The version of HTTP that carried a response: what the connection negotiated (by ALPN over TLS)
/// and the transport reports.
///
/// ```swift
/// let response = try await movies.response(for: MovieAPI.popular(page: 1))
/// if response.httpVersion == .http2 { print("multiplexed") }
/// ```
/// ``unknown`` when the transport does not say: URLSession on Linux never does, and on Apple
/// platforms the version is known once the task has ended, so a streamed response's head does not
/// carry it.
public struct HTTPProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    /// One byte, so that every response carries its version for nothing.
    private let code: UInt8

    private init(_ code: UInt8) {
        self.code = code
    }

    /// HTTP/1.0.
    public static var http1_0: HTTPProtocolVersion { HTTPProtocolVersion(10) }
    /// HTTP/1.1.
    public static var http1_1: HTTPProtocolVersion { HTTPProtocolVersion(11) }
    /// HTTP/2, multiplexed streams over one connection.
    public static var http2: HTTPProtocolVersion { HTTPProtocolVersion(20) }
    /// HTTP/3, over QUIC.
    public static var http3: HTTPProtocolVersion { HTTPProtocolVersion(30) }
    /// The transport did not say which version carried the response.
    public static var unknown: HTTPProtocolVersion { HTTPProtocolVersion(0) }

    /// The name as HAR files and logs write it: `HTTP/1.1`, `HTTP/2`, `HTTP/3`, or `unknown`.
    public var description: String {
        switch code {
        case 10: "HTTP/1.0"
        case 11: "HTTP/1.1"
        case 20: "HTTP/2"
        case 30: "HTTP/3"
        default: "unknown"
        }
    }

    /// The version with this major and minor number; ``unknown`` for any other.
    /// - Parameters:
    ///   - major: The major version: 1, 2 or 3.
    ///   - minor: The minor version: 0 or 1 for HTTP/1.
    package init(major: Int, minor: Int) {
        switch (major, minor) {
        case (1, 0): self = .http1_0
        case (1, 1): self = .http1_1
        case (2, _): self = .http2
        case (3, _): self = .http3
        default: self = .unknown
        }
    }

    /// The version named by an ALPN protocol identifier (`http/1.1`, `h2`, `h3`), as Apple's task
    /// metrics report it; ``unknown`` for any other name or none.
    /// - Parameter name: The identifier, if known.
    package init(protocolName name: String?) {
        switch name?.lowercased() {
        case "http/1.0": self = .http1_0
        case "http/1.1": self = .http1_1
        case "h2", "h2c": self = .http2
        case .some(let name) where name == "h3" || name.hasPrefix("h3-"): self = .http3
        default: self = .unknown
        }
    }

    /// The version as OpenTelemetry's `network.protocol.version` writes it: `1.1`, `2`, `3`;
    /// `nil` when unknown.
    var protocolVersion: String? {
        switch self {
        case .http1_0: "1.0"
        case .http1_1: "1.1"
        case .http2: "2"
        case .http3: "3"
        default: nil
        }
    }
}
