import Courier
import Foundation
import OpenAPIRuntime
import TestSupport

/// A transport for the pure middleware tests: answers each request with the next scripted reply
/// and records what it was sent. (Networking itself is proven in IntegrationTests.)
final class ScriptedTransport: ClientTransport, Sendable {
    enum Reply: Sendable {
        case status(Int, headers: HTTPFields = [:], body: String = "{}")
        case failure(any Error & Sendable)
    }

    private let replies: LockedBox<[Reply]>
    private let sent = LockedBox<[HTTPRequest]>([])

    init(_ replies: [Reply]) {
        self.replies = LockedBox(replies)
    }

    var requests: [HTTPRequest] { sent.value }

    func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        sent.mutate { $0.append(request) }
        if let body { _ = try await Data(collecting: body, upTo: .max) }  // as a real transport would
        let reply = replies.mutate { $0.isEmpty ? Reply.status(200) : $0.removeFirst() }
        switch reply {
        case .status(let code, let headers, let body):
            var fields = headers
            fields[.contentType] = "application/json"
            return (HTTPResponse(status: .init(code: code), headerFields: fields), HTTPBody(body))
        case .failure(let error):
            throw error
        }
    }
}

extension Client {
    /// A client for `https://api.example.com` over a scripted transport.
    static func scripted(_ transport: ScriptedTransport, middleware: [any Middleware]) -> Client {
        Client(baseURL: "https://api.example.com", transport: OpenAPITransport(transport)) { $0.middleware = middleware }
    }
}
