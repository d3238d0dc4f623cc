// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import NIOCore

/// Picks the event loop a request's delegate runs on, so that its callbacks run where its
/// connection does.
///
/// AsyncHTTPClient calls a delegate on the task's event loop, picked before the connection; when
/// the connection lives on another loop, each callback (head, body, end) is a hop between threads.
/// A request sent while no other is in flight goes to the transport's home loop: the pool prefers
/// a connection idle on that loop and opens new ones there, so one call after another stays on one
/// loop with no hop. Requests sent while others are in flight stay `.indifferent`, spread over the
/// group's loops with their connections, as the pool's throughput needs over HTTP/1.1. Over
/// HTTP/2 the calls share one connection, opened by the first (alone, so on the home loop): once a
/// response came over HTTP/2, every request runs its delegate there.
final class EventLoopChoice: Sendable {
    /// The loop a request that is alone runs on.
    private let home: any EventLoop
    /// The group `home` belongs to: only a client of this group can use it.
    private let group: any EventLoopGroup
    /// How many requests are in flight through the delegate API, and whether the last response
    /// came over a multiplexed connection.
    private let state = LockedState((inFlight: 0, multiplexed: false))

    init(group: any EventLoopGroup) {
        self.group = group
        self.home = group.next()
    }

    /// Runs `body` with the loop one request through `client` should run its delegate on, or
    /// `nil` for any loop, counting the request in flight meanwhile.
    func withLoop<Result>(
        for client: HTTPClient,
        _ body: ((any EventLoop)?) async throws -> Result
    ) async throws -> Result {
        let atHome = state.withLock { state in
            defer { state.inFlight += 1 }
            return state.inFlight == 0 || state.multiplexed
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return try await body(atHome && client.eventLoopGroup === group ? home : nil)
    }

    /// Notes the version of HTTP the last response came over.
    func note(_ version: HTTPProtocolVersion) {
        let multiplexed = version == .http2 || version == .http3
        state.withLock { if $0.multiplexed != multiplexed { $0.multiplexed = multiplexed } }
    }
}
#endif
