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
