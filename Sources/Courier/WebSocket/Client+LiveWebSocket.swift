extension Client {
    /// Opens a WebSocket that stays connected: after a drop it is opened again as `policy` says,
    /// and `onOpen` runs on every opening (to subscribe again) before messages are relayed.
    ///
    /// ```swift
    /// let live = prices.liveWebSocket(Request<Void>(.get, "prices/live")) { socket in
    ///     try await socket.send(.text(#"{"subscribe":"EURUSD"}"#))
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The handshake request, as for ``webSocket(_:configure:)``.
    ///   - policy: When to open the socket again; see ``WebSocketReconnectPolicy``.
    ///   - configuration: Each socket's limits and ping policy.
    ///   - connectivity: A network monitor (``InterfaceConnectivityMonitor``, or
    ///     `PathConnectivityMonitor` on Apple platforms): while it reports no network, the live
    ///     socket waits instead of spending tries, and it reconnects as soon as the network is
    ///     back. `nil` (the default): the back-off alone decides.
    ///   - onOpen: Runs on every opening, before the socket counts as open; an error it throws
    ///     ends that socket like a failed opening.
    /// - Returns: The live socket; it starts opening at once.
    public func liveWebSocket<E: Endpoint>(
        _ endpoint: E,
        reconnect policy: WebSocketReconnectPolicy = WebSocketReconnectPolicy(),
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        connectivity: (any ConnectivityMonitor)? = nil,
        onOpen: @escaping @Sendable (WebSocket) async throws -> Void = { _ in }
    ) -> LiveWebSocket {
        LiveWebSocket(
            open: { () async throws(CourierError) -> WebSocket in
                try await self.webSocket(endpoint) { $0 = configuration }
            },
            policy: policy,
            clock: snapshot.value.clock,
            connectivity: connectivity,
            onOpen: onOpen
        )
    }
}
