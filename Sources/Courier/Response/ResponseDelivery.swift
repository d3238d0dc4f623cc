import Foundation

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
