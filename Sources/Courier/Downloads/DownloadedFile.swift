import Foundation
import HTTPTypes

/// A response body saved to a file by ``Client/download(_:to:progress:)``.
public struct DownloadedFile: Sendable {
    /// Where the body is: the destination the call was given.
    public var url: URL
    /// The body's size in bytes.
    public var byteCount: Int64
    /// The response's status and header fields (`Content-Type`, `ETag`, …).
    public var response: HTTPResponse
    /// The version of HTTP that carried the body; ``HTTPProtocolVersion/unknown`` when the transport does
    /// not say.
    public var httpVersion: HTTPProtocolVersion = .unknown
    /// When the stages of the exchange that wrote the file happened.
    public var timings: ExchangeTimings?

    /// The body's media type, from `Content-Type`.
    public var contentType: String? {
        response.headerFields[.contentType]
    }
}
