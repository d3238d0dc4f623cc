import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Any swift-openapi-runtime `ClientTransport` as a Courier ``Transport``: the one adapter through
/// which a transport written for generated clients serves a ``Client``.
///
/// ```swift
/// let client = Client(baseURL: base, transport: OpenAPITransport(AsyncHTTPClientTransport()))
/// ```
///
/// The wrapped transport's response body is read into memory, written to a file or handed over as
/// the call asks, with the call's size limit and progress; request bodies reach it as `HTTPBody`.
public struct OpenAPITransport: Transport {
    /// The wrapped transport.
    public let wrapped: any ClientTransport
    /// The content codings the wrapped transport decodes.
    public let contentCodings: Set<ContentCoding>

    /// Wraps a transport.
    /// - Parameters:
    ///   - wrapped: The transport.
    ///   - contentCodings: The content codings it decodes (and advertises); none by default, so a
    ///     compressed body the request did not ask for is refused.
    public init(_ wrapped: any ClientTransport, contentCodings: Set<ContentCoding> = []) {
        self.wrapped = wrapped
        self.contentCodings = contentCodings
    }

    /// Sends the request through the wrapped transport's `send`.
    /// - Parameter request: The request and how its response body is wanted.
    /// - Returns: The response and its body.
    /// - Throws: The wrapped transport's errors; ``CourierError/Kind/responseTooLarge`` past the
    ///   delivery's limit.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        // A `ClientTransport` knows only task cancellation: it runs in a task the interruption ends.
        try await request.interruption.run {
            try await request.delivered { request, body, origin, name in
                try await wrapped.send(request, body: body, baseURL: origin, operationID: name)
            }
        }
    }
}
