import NIOCore
import NIOPosix

extension ReferenceServer {
    /// A loopback port where nothing listens (bound, read, closed), for offline and
    /// connection-refused scenarios.
    /// - Parameter host: The loopback address.
    /// - Returns: The port number.
    /// - Throws: When no socket can be bound.
    public static func unusedPort(host: String = "127.0.0.1") async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: host, port: 0)
            .get()
        let port = channel.localAddress?.port ?? 9
        try await channel.close()
        return port
    }
}
