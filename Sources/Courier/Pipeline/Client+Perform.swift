import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Client {
    /// The one path every call takes, whatever its public method: `send`, `response(for:)`,
    /// `download`, `stream`, with or without middleware.
    ///
    /// 1. The call, registered with the client (``InFlightCall``): counted in ``activity`` and
    ///    reached by ``cancelAll()`` until it ends.
    /// 2. The middleware fold (``MiddlewareChain``), outermost first, in a task of the call; with
    ///    no middleware it is the terminal step alone.
    /// 3. The terminal step, ``Attempt``: each attempt in the caller's task, its deadline and
    ///    ``cancelAll()`` firing an ``ExchangeInterruption`` the transport obeys, following
    ///    redirects, each hop a ``TransportExchange``: one ``Transport/send(_:)`` that delivers the
    ///    body as `delivery` says.
    /// 4. `read`: the caller's own reading of the response (decode, save, hand over).
    ///
    /// Each task is cancelled with the calling task. Like every internal step of the path, this runs
    /// on its caller's executor (`nonisolated(nonsending)`; see the "Performance design" article).
    ///
    /// - Parameters:
    ///   - prepared: The built request.
    ///   - snapshot: The configuration the call started with.
    ///   - delivery: Where the response body goes.
    ///   - progress: Receives upload and download progress.
    ///   - upgrade: For a WebSocket handshake, the socket's opening, which takes the place of the
    ///     transport's `send`; a handshake follows no redirect and is never coalesced.
    ///   - read: Turns the response, its body (in memory, unless delivered elsewhere) and the facts
    ///     of how it came (final URL, attempts, source) into the call's value.
    /// - Returns: What `read` returns.
    /// - Throws: ``CourierError``, naming the request.
    nonisolated(nonsending) func perform<Value: Sendable>(
        _ prepared: PreparedRequest,
        configuration snapshot: ConfigurationSnapshot,
        delivery: ResponseBodyDelivery,
        progress: (@Sendable (TransferProgress) -> Void)?,
        upgrade: WebSocketUpgrade? = nil,
        read: (MiddlewareResponse) async throws -> Value
    ) async throws(CourierError) -> Value {
        let call = inFlight.begin()
        defer { call.end() }
        do {
            let body = prepared.payload?.body
            var context = MiddlewareContext(
                name: prepared.name,
                origin: prepared.origin,
                requiresAuthentication: prepared.requiresAuthentication,
                timeout: prepared.timeout
            )
            context.credentialFields = snapshot.hops.credentialFields
            context.payload = prepared.payload
            context.priority = prepared.priority
            context.elapsedClock = snapshot.value.elapsedClock
            context.currentDate = snapshot.value.currentDate
            context.responseDelivery = delivery
            context.advertisedCodings = contentCodings
            context.cookieJar = snapshot.hops.cookieJar
            let middleware = snapshot.value.middleware
            var exchange = TransportExchange(transport: transport, contentCodings: contentCodings, delivery: delivery, progress: progress)
            let requiringPins = snapshot.value.hostsRequiringPins
            if !requiringPins.isEmpty {
                exchange.unpinnedHosts = Set(requiringPins.map { $0.lowercased() }).subtracting(transport.pinnedHosts)
            }
            var hops = snapshot.hops
            if let upgrade {
                exchange.upgrade = upgrade
                hops.redirectLimit = 0
            }
            let attempt = Attempt(
                exchange: exchange,
                hops: hops,
                call: call,
                coalescer: snapshot.value.coalescesRequests && upgrade == nil ? coalescer : nil,
                hostCalls: snapshot.value.maximumCallsPerHost.map { hostCallQueue(limit: $0) }
            )
            let send = MiddlewareChain.composed(middleware, call: call, terminal: attempt.run)
            return try await read(try await send(prepared.request, body, context))
        } catch {
            throw CourierError(error).with(request: prepared.request)
        }
    }
}
