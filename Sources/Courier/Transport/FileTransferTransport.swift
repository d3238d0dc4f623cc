import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that moves files itself instead of through `HTTPBody` sequences, because its
/// `ClientTransport` conformance would hold whole bodies in memory (URLSession on Linux).
package protocol FileTransferTransport: ClientTransport {
    /// Sends the request and, when `transfer.destination` is set, leaves the response body in that
    /// file (whatever the status) and returns no body.
    func transfer(_ transfer: FileTransfer) async throws -> (HTTPResponse, HTTPBody?)
}
