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
/// HTTP/2 the calls share one connection: once a response came over HTTP/2, every request asks for
/// the home loop for its delegate and its connection both, so the one connection is there (a
/// connection opened elsewhere first, while many calls started at once, is left to close when idle).
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

    /// Where one request runs.
    enum Placement {
        /// Any loop, with its connection.
        case anyLoop
        /// The delegate on this loop; the connection wherever the pool has one.
        case delegate(on: any EventLoop)
        /// The delegate and the connection both on this loop.
        case delegateAndConnection(on: any EventLoop)

        /// AsyncHTTPClient's preference for it.
        var preference: HTTPClient.EventLoopPreference {
            switch self {
            case .anyLoop: .indifferent
            case .delegate(let loop): .delegate(on: loop)
            case .delegateAndConnection(let loop): .delegateAndChannel(on: loop)
            }
        }

        /// The loop the delegate runs on, if one is asked for.
        var loop: (any EventLoop)? {
            switch self {
            case .anyLoop: nil
            case .delegate(let loop), .delegateAndConnection(let loop): loop
            }
        }
    }

    /// Runs `body` with where one request through `client` runs, counting the request in flight
    /// meanwhile.
    func withLoop<Result>(
        for client: HTTPClient,
        _ body: (Placement) async throws -> Result
    ) async throws -> Result {
        let (alone, multiplexed) = state.withLock { state in
            defer { state.inFlight += 1 }
            return (state.inFlight == 0, state.multiplexed)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        guard client.eventLoopGroup === group else { return try await body(.anyLoop) }
        if multiplexed { return try await body(.delegateAndConnection(on: home)) }
        return try await body(alone ? .delegate(on: home) : .anyLoop)
    }

    /// Notes the version of HTTP the last response came over.
    func note(_ version: HTTPProtocolVersion) {
        let multiplexed = version == .http2 || version == .http3
        state.withLock { if $0.multiplexed != multiplexed { $0.multiplexed = multiplexed } }
    }
}
#endif
