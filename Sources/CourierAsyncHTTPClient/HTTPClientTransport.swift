import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// Courier's transport over AsyncHTTPClient (SwiftNIO): the fast path on Linux and servers.
///
/// It wires swift-openapi-async-http-client's `AsyncHTTPClientTransport` and adds two things
/// Courier needs from it: AsyncHTTPClient's and NIO's errors become ``CourierError`` kinds (also
/// for failures while the body streams), and the default `HTTPClient` fails fast when a server
/// cannot be reached instead of retrying the connection until the deadline.
///
/// ```swift
/// let movies = Client(backend: .movies, environment: .production, transport: .asyncHTTPClient())
/// ```
///
/// Lifetimes: the default `HTTPClient` (``AsyncHTTPClient/HTTPClient/courierShared``) lives for the
/// whole process and is never shut down. An `HTTPClient` you pass in stays yours: shut it down
/// after the last request.
public struct HTTPClientTransport: ClientTransport {
    private let base: AsyncHTTPClientTransport

    /// Creates the transport.
    /// - Parameters:
    ///   - client: The `HTTPClient` to send with.
    ///   - deadline: AsyncHTTPClient's own per-request deadline; Courier's timeouts usually end a
    ///     request first.
    public init(client: HTTPClient = .courierShared, deadline: Duration = .seconds(300)) {
        let nanoseconds = deadline.components.seconds * 1_000_000_000 + deadline.components.attoseconds / 1_000_000_000
        base = AsyncHTTPClientTransport(configuration: .init(client: client, timeout: .nanoseconds(nanoseconds)))
    }

    /// Sends a request; errors are ``CourierError``s.
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            let (response, responseBody) = try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
            return (response, responseBody.map(Self.mappingErrors))
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error)
        }
    }

    /// The same body, with errors raised while it streams turned into ``CourierError``s.
    private static func mappingErrors(_ body: HTTPBody) -> HTTPBody {
        HTTPBody(ErrorMappingSequence(base: body), length: body.length, iterationBehavior: body.iterationBehavior)
    }
}

/// Iterates a body, classifying any error it throws.
private struct ErrorMappingSequence: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let base: HTTPBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            do {
                return try await base.next()
            } catch {
                throw AsyncHTTPClientErrorClassifier.courierError(for: error)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }
}

extension ClientTransport where Self == HTTPClientTransport {
    /// The AsyncHTTPClient transport: recommended on Linux, for servers and command-line tools.
    /// - Parameter client: The `HTTPClient`; Courier's shared fail-fast client by default.
    /// - Returns: A transport for ``Courier/Client``.
    public static func asyncHTTPClient(_ client: HTTPClient = .courierShared) -> HTTPClientTransport {
        HTTPClientTransport(client: client)
    }
}
