import Courier
import CourierTesting
import Foundation

/// One reply of a script, as the pure middleware tests write it: a status with a JSON body (`{}`
/// unless given), or a transport failure.
enum ScriptedReply: Sendable {
    case status(Int, headers: HTTPFields = [:], body: String = "{}")
    case failure(any Error & Sendable)

    /// The reply as the kit's stub answers it; every body is declared JSON.
    var response: StubResponse {
        switch self {
        case .status(let code, let headers, let body):
            var fields = headers
            fields[.contentType] = "application/json"
            return .status(HTTPResponse.Status(code: code), headerFields: fields, body: Data(body.utf8))
        case .failure(let error):
            return .failure(.error(error))
        }
    }
}

extension StubTransport {
    /// The kit's stub answering each request with the next reply of `replies`, then 200 with
    /// `{}` once the script is done; it records what it was sent. (Networking itself is proven in
    /// IntegrationTests.)
    static func scripted(_ replies: [ScriptedReply]) -> StubTransport {
        let stub = StubTransport()
        stub.answer(.any, with: (replies + [.status(200)]).map(\.response))
        return stub
    }

    /// The kit's stub as a server that accepts only `Authorization: Bearer <token>`: 204 for a
    /// request that carries it, 401 for any other; it records what it was sent.
    static func accepting(bearer token: String) -> StubTransport {
        let stub = StubTransport()
        stub.answer(.any, with: .status(.unauthorized))
        stub.answer(RequestMatcher().header(.authorization, "Bearer \(token)"), with: .status(.noContent))
        return stub
    }
}

extension Client {
    /// A client for `https://api.example.com` over a scripted stub.
    static func scripted(_ transport: StubTransport, middleware: [any Middleware]) -> Client {
        Client(baseURL: "https://api.example.com", transport: transport) { $0.middleware = middleware }
    }
}
