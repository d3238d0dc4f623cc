import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One attempt whose request body comes from a file, whose response body goes to a file, or both.
package struct FileTransfer: Sendable {
    package var request: HTTPRequest
    /// The request body, when it is not a file.
    package var body: HTTPBody?
    /// The file the request body is read from.
    package var bodyFile: URL?
    package var origin: URL
    /// Where a response body goes; `nil` keeps it in memory (up to `bodyLimit`).
    package var destination: URL?
    package var bodyLimit: Int
    package var progress: (@Sendable (TransferProgress) -> Void)?
}

/// A transport that moves files itself instead of through `HTTPBody` sequences, because its
/// `ClientTransport` conformance would hold whole bodies in memory (URLSession on Linux).
package protocol FileTransferTransport: ClientTransport {
    /// Sends the request and, when `transfer.destination` is set, leaves the response body in that
    /// file (whatever the status) and returns no body.
    func transfer(_ transfer: FileTransfer) async throws -> (HTTPResponse, HTTPBody?)
}

/// Where the body of a response goes once its head has arrived.
enum ResponseDelivery: Sendable {
    /// Read into memory, up to the client's size limit.
    case memory
    /// A successful response's body is written to this file; other bodies are read into memory.
    case file(URL)
    /// A successful response's body is handed over unread; other bodies are read into memory.
    case stream

    package var destination: URL? {
        if case .file(let url) = self { url } else { nil }
    }
}
