import AsyncHTTPClient
import Courier
@testable import CourierAsyncHTTPClient
import NIOCore
import NIOPosix
import Testing

/// A request alone runs its delegate on the transport's home loop, where its connection then
/// lives too; requests sent while others are in flight are spread over the group's loops.
@Suite("The event loop a request sent through AsyncHTTPClient's delegate API runs on")
struct EventLoopChoiceTests {
    /// Runs `body` with an `HTTPClient` on a group of two loops, then shuts both down.
    func withClient(_ body: (HTTPClient, MultiThreadedEventLoopGroup) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let client = HTTPClient(eventLoopGroup: group, configuration: HTTPClient.courierConfiguration())
        do {
            try await body(client, group)
        } catch {
            try await client.shutdown()
            try await group.shutdownGracefully()
            throw error
        }
        try await client.shutdown()
        try await group.shutdownGracefully()
    }

    @Test("one request after another runs on the same loop of the client's group")
    func aloneOnHome() async throws {
        try await withClient { client, group in
            let choice = EventLoopChoice(group: group)
            var loops: [any EventLoop] = []
            for _ in 0..<6 {
                let loop = try await choice.withLoop(for: client) { $0.loop }
                loops.append(try #require(loop))
            }
            #expect(loops.allSatisfy { $0 === loops[0] })
            #expect(group.makeIterator().contains { $0 === loops[0] })
        }
    }

    @Test("a request sent while another is in flight may run on any loop, and the first counts until it ends, even by an error")
    func indifferentWhileBusy() async throws {
        struct Failure: Error {}
        try await withClient { client, group in
            let choice = EventLoopChoice(group: group)
            let inner = try await choice.withLoop(for: client) { outer in
                #expect(outer.loop != nil)
                return try await choice.withLoop(for: client) { $0.loop }
            }
            #expect(inner == nil)
            await #expect(throws: Failure.self) {
                try await choice.withLoop(for: client) { _ in throw Failure() }
            }
            #expect(try await choice.withLoop(for: client) { $0.loop } != nil, "nothing is left counted in flight")
        }
    }

    @Test("once a response came over HTTP/2, requests in flight together ask for the home loop for their delegate and their connection; back to spreading after HTTP/1.1")
    func multiplexedOnHome() async throws {
        try await withClient { client, group in
            let choice = EventLoopChoice(group: group)
            choice.note(.http2)
            let (outer, inner) = try await choice.withLoop(for: client) { outer in
                (outer, try await choice.withLoop(for: client) { $0 })
            }
            guard case .delegateAndConnection(let home) = outer, case .delegateAndConnection(let innerLoop) = inner else {
                Issue.record("expected the home loop for delegate and connection, got \(outer) and \(inner)")
                return
            }
            #expect(innerLoop === home)
            choice.note(.http1_1)
            let spread = try await choice.withLoop(for: client) { _ in try await choice.withLoop(for: client) { $0.loop } }
            #expect(spread == nil)
        }
    }

    @Test("a client of another group may run on any loop")
    func otherGroup() async throws {
        try await withClient { client, _ in
            let otherGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let choice = EventLoopChoice(group: otherGroup)
            #expect(try await choice.withLoop(for: client) { $0.loop } == nil)
            try await otherGroup.shutdownGracefully()
        }
    }
}
