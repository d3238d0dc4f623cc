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
    /// transport's trust settings (roots and pins).
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
        let opened = LockedState<(any WebSocketTransportConnection)?>(nil)
        let limits = configuration
        let terminal: MiddlewareNext = { request, _, context in
            let handshake = try await opener.openWebSocket(
                WebSocketOpenRequest(
                    request: request,
                    origin: context.origin,
                    timeout: context.timeout,
                    maximumFrameSize: limits.maximumFrameSize,
                    maximumMessageSize: limits.maximumMessageSize
                )
            )
            // A middleware that sends the handshake again (a refreshed token) leaves only the last socket open.
            let earlier = opened.withLock { opened in
                defer { opened = handshake.connection }
                return opened
            }
            if let earlier { await earlier.close(.goingAway, reason: "") }
            return MiddlewareResponse(
                response: handshake.response,
                body: handshake.body.isEmpty ? nil : HTTPBody(handshake.body),
                url: prepared.url ?? context.origin
            )
        }
        let call = inFlight.begin()
        defer { call.end() }
        let result: MiddlewareResponse
        let refusalBody: Data
        do {
            var context = MiddlewareContext(
                name: prepared.name,
                origin: prepared.origin,
                requiresAuthentication: prepared.requiresAuthentication,
                timeout: prepared.timeout
            )
            context.credentialFields = snapshot.hops.credentialFields
            context.elapsedClock = snapshot.value.elapsedClock
            context.currentDate = snapshot.value.currentDate
            context.responseDelivery = .collected(upTo: 64 * 1024)
            let send = MiddlewareChain.composed(snapshot.value.middleware, call: call, terminal: terminal)
            let handshakeRequest = prepared.request
            let callContext = context
            // In a task of the call even without middleware, so that `cancelAll()` reaches the handshake.
            result = try await call.run { try await send(handshakeRequest, nil, callContext) }
            if let body = result.body {
                refusalBody = try await Data(collecting: body, upTo: 64 * 1024)
            } else {
                refusalBody = Data()
            }
        } catch {
            if let connection = opened.withLock({ $0 }) { await connection.close(.goingAway, reason: "") }
            throw CourierError(error).with(request: prepared.request)
        }
        let connection = opened.withLock { $0 }
        guard result.status == .switchingProtocols, let connection else {
            if let connection { await connection.close(.goingAway, reason: "") }
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
