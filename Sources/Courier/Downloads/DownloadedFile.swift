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

    /// The body's media type, from `Content-Type`.
    public var contentType: String? {
        response.headerFields[.contentType]
    }
}
