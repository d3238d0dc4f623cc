// The other side of WebSocketWorkload.swift, built with it. A file of its own, without `import
// Courier`: swift-websocket's WSCore declares a `WebSocketMessage` of its own.
#if AsyncHTTPClient
import Logging
import WSClient

extension WebSocketWorkload {
    /// One round on `sockets` sockets of swift-websocket's `WSClient`, used directly as its README
    /// shows: each worker's round trips run inside its connection's handler, and returning from
    /// the handler closes the socket.
    func raw(sockets: Int, duration: Duration) async -> LoadRunner.Sample {
        let round = EchoRound(sockets: sockets, duration: duration)
        let url = webSocketURL
        let message = Self.message
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<sockets {
                group.addTask {
                    _ = try? await WebSocketClient.connect(url: url, logger: Self.logger) { inbound, outbound, _ in
                        var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
                        await round.measure(worker: worker) {
                            try await outbound.write(.text(message))
                            guard try await messages.next() == .text(message) else { throw EchoRound.WrongEcho() }
                        }
                    }
                    // A socket that never opened counts as an error; after one that measured, nothing.
                    round.leave(worker: worker)
                }
            }
        }
        return round.sample
    }

    /// `WSClient`'s logger: quiet, as a benchmark's client should be.
    private static let logger: Logger = {
        var logger = Logger(label: "courier-bench.wsclient")
        logger.logLevel = .critical
        return logger
    }()
}
#endif
