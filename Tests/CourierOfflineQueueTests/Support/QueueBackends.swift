import Courier
#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
import Foundation
import ReferenceServer

/// The transports every queue scenario runs on; AsyncHTTPClient's only with the package trait
/// `AsyncHTTPClient` (on by default).
enum QueueTransport: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlsession
    #if AsyncHTTPClient
    case asynchttpclient
    #endif

    func make() -> any Transport {
        switch self {
        case .urlsession: .urlSession()
        #if AsyncHTTPClient
        case .asynchttpclient: .asyncHTTPClient()
        #endif
        }
    }

    var description: String { rawValue }
}

/// `POST journal/{name}` with `{"value": n}`: what the reference server appends to a journal.
func journalEntry(_ name: String, _ value: Int, query: QueryParameters = [:]) -> Request<Data> {
    Request<Data>(.post, "journal/\(name)", query: query, body: .json(["value": value]))
}

/// Starts a reference server, on `port` when given, runs `body` and stops it.
func withServer<T>(port: Int = 0, options: ReferenceServer.Options = .init(), _ body: (ReferenceServer) async throws -> T) async throws -> T {
    var options = options
    options.port = port
    let server = try await ReferenceServer.start(options)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
