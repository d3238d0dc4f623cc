import Courier
#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
import ReferenceServer

/// The transports every scenario against the reference server runs on; AsyncHTTPClient's only
/// when the package trait `AsyncHTTPClient` is on (it is by default).
public enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case urlSession
    #if AsyncHTTPClient
    case asyncHTTPClient
    #endif

    /// A transport of this kind.
    /// - Returns: The transport, over the shared session or client.
    public func make() -> any Transport {
        switch self {
        case .urlSession: .urlSession()
        #if AsyncHTTPClient
        case .asyncHTTPClient: .asyncHTTPClient()
        #endif
        }
    }

    /// The kind's name, as test arguments show it.
    public var description: String { rawValue }
}

/// A reference server started for one test, and a transport to reach it with.
public struct ReferenceBackends: Sendable {
    /// The server, on 127.0.0.1.
    public let server: ReferenceServer
    /// A transport of the kind the test asked for.
    public let transport: any Transport
}

/// Starts a reference server on 127.0.0.1, runs `body`, and stops the server, also when `body`
/// throws.
/// - Parameters:
///   - transport: The kind of transport `body` gets; URLSession's by default.
///   - options: The server's options; a free port unless they name one.
///   - body: The test.
/// - Returns: What `body` returns.
/// - Throws: What starting the server or `body` throws.
public func withBackends<T>(
    _ transport: TransportKind = .urlSession,
    options: ReferenceServer.Options = .init(),
    _ body: (ReferenceBackends) async throws -> T
) async throws -> T {
    let server = try await ReferenceServer.start(options)
    do {
        let result = try await body(ReferenceBackends(server: server, transport: transport.make()))
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
