import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// Opens a WebSocket to `endpoint`: a `GET` described like any other call (path, query,
    /// header fields, the backend of the client's environment), its handshake sent through the
    /// client's middleware (authentication with its one refresh on a 401, common parameters,
    /// logging, metrics, tracing, rate limits).
    ///
    /// ```swift
    /// let socket = try await chat.webSocket(Request<Void>(.get, "rooms/lobby/live"))
    /// try await socket.send(.text("hello"))
    /// ```
    ///
    /// The socket's scheme follows the backend's: `ws` for `http`, `wss` for `https`, with the
    /// transport's trust settings (roots and pins) and proxy. The handshake takes the route every
    /// call takes: the middleware, the attempt's deadline, ``Configuration/maximumCallsPerHost``,
    /// the cookie jar both ways, and ``Configuration/hostsRequiringPins`` (a listed host the
    /// transport does not pin is refused before a byte is sent). It follows no redirect: a 3xx
    /// answer is a refusal with its status.
    /// - Parameters:
    ///   - endpoint: The handshake request; its method must be `GET`, and its response type is
    ///     not used.
    ///   - configure: Adjusts the socket's limits and ping policy.
    /// - Returns: The open socket.
    /// - Throws: ``CourierError``: of kind ``CourierError/Kind/webSocket`` with
    ///   ``WebSocketFailure/Reason/handshakeRefused`` when the server answered anything but 101
    ///   (``CourierError/status`` and ``CourierError/message`` say what);
    ///   ``CourierError/Kind/invalidRequest`` for a method other than `GET`;
    ///   ``CourierError/Kind/transportFailed`` when the transport cannot open WebSockets;
    ///   ``CourierError/Kind/notConnected``, ``CourierError/Kind/timedOut`` or
    ///   ``CourierError/Kind/untrustedServer`` as for any request.
    public func webSocket<E: Endpoint>(
        _ endpoint: E,
        configure: (inout WebSocketConfiguration) -> Void = { _ in }
    ) async throws(CourierError) -> WebSocket {
        var configuration = WebSocketConfiguration()
        configure(&configuration)
        let request = endpoint.request
        let snapshot = self.snapshot
        let prepared = try RequestBuilder.prepare(request, snapshot: snapshot)
        guard prepared.request.method == .get else {
            throw CourierError(.invalidRequest, message: "A WebSocket handshake is a GET, not a \(prepared.request.method).").with(request: prepared.request)
        }
        guard let opener = transport.webSockets else {
            throw CourierError(
                .transportFailed,
                message: "This transport cannot open WebSockets. Use the AsyncHTTPClient transport (transport: .asyncHTTPClient())."
            ).with(request: prepared.request)
        }
        let upgrade = WebSocketUpgrade(opener: opener, configuration: configuration, timeout: prepared.timeout)
        let (result, refusalBody): (MiddlewareResponse, Data)
        do throws(CourierError) {
            (result, refusalBody) = try await perform(
                prepared,
                configuration: snapshot,
                delivery: .collected(upTo: 64 * 1024),
                progress: nil,
                upgrade: upgrade
            ) { response in
                guard let body = response.body else { return (response, Data()) }
                return (response, try await Data(collecting: body, upTo: 64 * 1024))
            }
        } catch {
            await upgrade.closeOpened()
            throw error
        }
        guard result.status == .switchingProtocols, let connection = upgrade.connection else {
            await upgrade.closeOpened()
            var error = ResponseReader.error(for: result.response, body: refusalBody, errorFormat: snapshot.value.errorFormat)
            error.kind = .webSocket
            error.webSocket = WebSocketFailure(.handshakeRefused)
            if error.message == nil {
                error.message = "The server refused the WebSocket handshake with status \(result.status.code)."
            }
            throw error.with(request: prepared.request)
        }
        let id = webSockets.reserveID()
        let registry = webSockets
        let session = WebSocketSession(connection: connection, configuration: configuration, clock: snapshot.value.clock) {
            registry.remove(id)
        }
        registry.add(session, id: id)
        session.start()
        return WebSocket(
            response: result.response,
            session: session,
            encoder: snapshot.value.encoder,
            decoder: ResponseJSONDecoder(for: request, configuration: snapshot.value)
        )
    }
}
