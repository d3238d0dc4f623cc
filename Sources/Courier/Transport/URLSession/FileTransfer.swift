import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One exchange whose request body comes from a file, whose response body goes to a file, or
/// both, as URLSession's upload and download tasks need it.
struct FileTransfer: Sendable {
    var request: HTTPRequest
    /// The request body, when it is not read from disk.
    var body: HTTPBody?
    /// The stretches of a body read from disk (a file, a form with files), with its length.
    var segments: [BodySegment]?
    var length: Int64?
    var origin: URL
    /// Where a successful response body goes; `nil` keeps it in memory (up to `bodyLimit`).
    var destination: URL?
    var bodyLimit: Int
    var progress: (@Sendable (TransferProgress) -> Void)?

    /// Whether `request` goes this way: its body is read from disk, or its response body goes to
    /// a file.
    static func carries(_ request: TransportRequest) -> Bool {
        if request.delivery.destination != nil { return true }
        guard let payload = request.payload else { return false }
        return payload.segments != nil && !payload.isInMemory
    }

    /// The body stream for a body read from disk, attached to `urlRequest` with its length.
    func attachBody(to urlRequest: inout URLRequest) -> SegmentInputStream? {
        guard let segments else { return nil }
        let stream = SegmentInputStream(segments)
        urlRequest.httpBodyStream = stream
        if let length, !PlatformURLSession.sendsBodyStreamsChunked {
            urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
        }
        return stream
    }

    init(_ request: TransportRequest) {
        self.request = request.request
        if let payload = request.payload, let segments = payload.segments, !payload.isInMemory {
            self.segments = segments
            self.length = payload.length
        } else {
            self.body = request.body
        }
        self.origin = request.origin
        self.destination = request.delivery.destination
        self.bodyLimit = request.delivery.limit
        self.progress = request.progress
    }
}
