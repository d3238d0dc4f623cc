import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One exchange whose request body comes from a file, whose response body goes to a file, or
/// both, as URLSession's upload and download tasks need it.
struct FileTransfer: Sendable {
    var request: HTTPRequest
    /// The request body, when it is not a file.
    var body: HTTPBody?
    /// The file the request body is read from.
    var bodyFile: URL?
    var origin: URL
    /// Where a successful response body goes; `nil` keeps it in memory (up to `bodyLimit`).
    var destination: URL?
    var bodyLimit: Int
    var progress: (@Sendable (TransferProgress) -> Void)?

    init(_ request: TransportRequest) {
        self.request = request.request
        self.body = request.bodyFile == nil ? request.body : nil
        self.bodyFile = request.bodyFile
        self.origin = request.origin
        self.destination = request.delivery.destination
        self.bodyLimit = request.delivery.limit
        self.progress = request.progress
    }
}
