// Courier's WebSockets open over the AsyncHTTPClient transport only: built with that package trait.
#if AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation

/// Echo round trips on the reference server's `ws/echo` route: every socket sends a short text
/// message and awaits its echo before sending the next, through (a) swift-websocket's `WSClient`
/// used directly (WebSocketWorkload+WSClient.swift) and (b) Courier's ``WebSocket`` over its
/// AsyncHTTPClient transport, alternating in rounds.
///
/// Both sides run on the same event loops (`MultiThreadedEventLoopGroup.singleton`: `WSClient`'s
/// default and `HTTPClient.courierShared`'s) and open fresh sockets each round, outside the
/// timed window (``EchoRound``).
struct WebSocketWorkload: Sendable {
    /// The workload's name in the `RESULT` lines.
    static let name = "ws_echo"
    /// The echo route, on the reference server's WebSocket listener.
    static let path: Path = "ws/echo"
    /// What every round trip sends: 32 bytes of text.
    static let message = "courier-bench ws_echo 0123456789"

    /// The WebSocket listener's origin, e.g. `http://127.0.0.1:8081`.
    let origin: String
    /// The echo route's `ws://` (or `wss://`) URL, for `WSClient`.
    let webSocketURL: String
    /// Courier's client of the listener, over the shared `HTTPClient`.
    let client: Client

    /// - Parameter origin: The WebSocket listener's origin (``BenchServer/webSocketBaseURL``).
    init(origin: String) {
        self.origin = origin
        let secure = origin.lowercased().hasPrefix("https:")
        // "http://127.0.0.1:8081/" → "://127.0.0.1:8081"
        var authority = origin.drop(while: { $0 != ":" })
        while authority.hasSuffix("/") { authority = authority.dropLast() }
        webSocketURL = "\(secure ? "wss" : "ws")\(authority)/\(Self.path.description)"
        client = Client(baseURL: BaseURL(origin), transport: .asyncHTTPClient(.courierShared))
    }

    /// Each socket count in turn: a short warm-up of each side, then `rounds` rounds of
    /// `duration` per side, `WSClient` and Courier alternating which goes first.
    /// - Parameters:
    ///   - socketCounts: How many sockets at once, e.g. `[1, 64]`.
    ///   - rounds: Rounds per socket count.
    ///   - duration: How long each side runs per round.
    ///   - runsRaw: Whether the `WSClient` side runs.
    ///   - runsCourier: Whether the Courier side runs.
    ///   - report: Called with the socket count and both sides' totals, as soon as they are known.
    func run(
        socketCounts: [Int],
        rounds: Int,
        duration: Duration,
        runsRaw: Bool,
        runsCourier: Bool,
        report: (_ sockets: Int, _ raw: LoadRunner.Sample, _ courier: LoadRunner.Sample) -> Void
    ) async {
        for sockets in socketCounts {
            if runsRaw { _ = await raw(sockets: sockets, duration: .milliseconds(300)) }
            if runsCourier { _ = await courier(sockets: sockets, duration: .milliseconds(300)) }
            var rawTotal = LoadRunner.Sample()
            var courierTotal = LoadRunner.Sample()
            for round in 0..<rounds {
                // Alternate which side goes first so drift of the machine cancels out.
                if round % 2 == 0 {
                    if runsRaw { rawTotal.add(await raw(sockets: sockets, duration: duration)) }
                    if runsCourier { courierTotal.add(await courier(sockets: sockets, duration: duration)) }
                } else {
                    if runsCourier { courierTotal.add(await courier(sockets: sockets, duration: duration)) }
                    if runsRaw { rawTotal.add(await raw(sockets: sockets, duration: duration)) }
                }
            }
            report(sockets, rawTotal, courierTotal)
        }
    }

    /// One round on `sockets` Courier sockets, opened as an app opens them.
    func courier(sockets: Int, duration: Duration) async -> LoadRunner.Sample {
        let round = EchoRound(sockets: sockets, duration: duration)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<sockets {
                group.addTask {
                    let socket: WebSocket
                    do {
                        socket = try await client.webSocket(Request<Void>(.get, Self.path))
                    } catch {
                        round.leave(worker: worker)
                        return
                    }
                    var messages = socket.messages.makeAsyncIterator()
                    await round.measure(worker: worker) {
                        try await socket.send(.text(Self.message))
                        guard try await messages.next() == .text(Self.message) else { throw EchoRound.WrongEcho() }
                    }
                    await socket.close()
                }
            }
        }
        return round.sample
    }
}
#endif
