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
    /// A body read from disk (a file, a form with files), with its stretches and its length.
    var payload: RequestPayload?
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

    /// The file an upload task sends: for a body read from disk whose response is not written to
    /// a file (a download task takes a body only as a stream).
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` (see ``UploadFile/prepare(_:)``).
    func uploadFile() throws(CourierError) -> UploadFile? {
        guard destination == nil, let payload else { return nil }
        return try UploadFile.prepare(payload)
    }

    /// The body stream for a body read from disk that goes with a download task, attached to
    /// `urlRequest` with its length where the platform sends it; the source gives URLSession a
    /// fresh stream when it asks for one.
    func attachBody(to urlRequest: inout URLRequest) -> BodyStreamSource? {
        guard let segments else { return nil }
        let source = BodyStreamSource(segments: segments)
        urlRequest.httpBodyStream = source.makeStream()
        if let length, !PlatformURLSession.sendsBodyStreamsChunked {
            urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
        }
        return source
    }

    init(_ request: TransportRequest) {
        self.request = request.request
        if let payload = request.payload, let segments = payload.segments, !payload.isInMemory {
            self.payload = payload
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
