// Compiled with the package trait `AsyncHTTPClient`.
#if AsyncHTTPClient
@testable import Courier
@testable import CourierAsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// The AsyncHTTPClient transport's own deadline for a response head is a timer on the request's
/// event loop; it runs only when the client would not end the exchange sooner.
@Suite("The transport's own wait for a response head")
struct HeadTimeoutTests {
    let transport = HTTPClientTransport(deadline: .seconds(300))

    func request(interruptedBy interruption: ExchangeInterruption) throws -> TransportRequest {
        var request = TransportRequest(
            request: HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/movies"),
            body: nil,
            origin: try #require(URL(string: "http://127.0.0.1:1")),
            name: "movies",
            delivery: .collected(upTo: 1 << 20)
        )
        request.interruption = interruption
        return request
    }

    @Test("no timer runs when the call's deadline comes before the transport's")
    func callDeadlineFirst() throws {
        let interruption = ExchangeInterruption.make(deadline: .now + .seconds(60))
        #expect(transport.headTimeout(for: try request(interruptedBy: interruption)) == nil)
    }

    @Test("the transport's deadline applies when it comes first, or when nothing says when the call ends")
    func transportDeadlineFirst() throws {
        let later = ExchangeInterruption.make(deadline: .now + .seconds(600))
        #expect(transport.headTimeout(for: try request(interruptedBy: later)) == .seconds(300))
        let unknown = ExchangeInterruption.make(deadline: nil)
        #expect(transport.headTimeout(for: try request(interruptedBy: unknown)) == .seconds(300))
        #expect(transport.headTimeout(for: try request(interruptedBy: .none)) == .seconds(300))
    }
}
#endif
