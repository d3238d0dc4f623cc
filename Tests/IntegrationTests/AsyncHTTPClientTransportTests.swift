// The AsyncHTTPClient transport's own rules: these run with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import ExampleAPIs
import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceServer
import TestSupport
import Testing

/// A body wanted whole in memory goes through AsyncHTTPClient's delegate API; with a progress
/// handler, through its async API. Both keep the same rules.
@Suite("The AsyncHTTPClient transport, through either of AsyncHTTPClient's APIs", .timingSensitive)
struct AsyncHTTPClientTransportTests {
    /// A body that declares `declared` bytes and yields `actual`, and can be read again.
    static func body(declaring declared: Int64, yielding actual: Int) -> HTTPBody {
        HTTPBody([UInt8](repeating: UInt8(ascii: "a"), count: actual), length: .known(declared))
    }

    @Test(
        "the transport's own deadline covers the wait for the response head, not a body still arriving",
        arguments: [false, true]
    )
    func deadlineCoversTheHeadOnly(withProgress: Bool) async throws {
        let server = try await ReferenceServer.start(.init())
        // Room for the head on a busy machine: the deadline is 4 s, and at one byte every 20 ms the
        // echo, which repeats the 200-character field below, takes twice as long.
        let deadline = Duration.seconds(4)
        let transport = HTTPClientTransport(deadline: deadline)
        let client = Client(baseURL: BaseURL("\(server.baseURL)/echo"), transport: transport) { $0.timeout = .seconds(60) }
        let padding = try #require(HTTPField.Name("X-Padding"))
        let request = Request<Data>(.get, "slow").header(.fault, "trickle=20").header(padding, String(repeating: "p", count: 200))
        let started = ContinuousClock.now
        let result = await capture {
            withProgress ? try await client.send(request, progress: { _ in }) : try await client.send(request)
        }
        let elapsed = ContinuousClock.now - started
        await server.stop()
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(elapsed > deadline, "the body took \(elapsed): too short to show anything")
    }

    @Test("a response head later than the transport's own deadline ends the request as timed out", arguments: [false, true])
    func lateHeadTimesOut(withProgress: Bool) async throws {
        let server = try await ReferenceServer.start(.init())
        let transport = HTTPClientTransport(deadline: .seconds(1))
        let client = Client(baseURL: BaseURL(server.baseURL), transport: transport) { $0.timeout = .seconds(60) }
        let request = Request<Data>(.get, "echo/late").header(.fault, "delay=20000")
        let result = await capture {
            withProgress ? try await client.send(request, progress: { _ in }) : try await client.send(request)
        }
        await server.stop()
        #expect(result.error?.kind == .timedOut, "\(String(describing: result.error))")
    }

    @Test("a request body longer or shorter than the length it declares is an invalid request", arguments: [5, 15])
    func requestBodyLengthMismatch(actual: Int) async throws {
        let server = try await ReferenceServer.start(.init())
        let transport = HTTPClientTransport()
        let url = try #require(URL(string: server.baseURL))
        let request = TransportRequest(
            request: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/echo/upload"),
            body: Self.body(declaring: 10, yielding: actual),
            origin: url,
            name: "upload",
            delivery: .collected(upTo: 1 << 20)
        )
        let result = await capture { try await transport.send(request) }
        await server.stop()
        #expect(result.error?.kind == .invalidRequest, "\(String(describing: result.error))")
    }

    @Test("a request body of the length it declares is sent whole")
    func requestBodyOfItsLength() async throws {
        let server = try await ReferenceServer.start(.init())
        let transport = HTTPClientTransport()
        let url = try #require(URL(string: server.baseURL))
        let request = TransportRequest(
            request: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/echo/upload"),
            body: Self.body(declaring: 10, yielding: 10),
            origin: url,
            name: "upload",
            delivery: .collected(upTo: 1 << 20)
        )
        let response = try await transport.send(request)
        await server.stop()
        #expect(response.response.status == .ok)
        #expect(response.attempts == 1)
    }
}
#endif
