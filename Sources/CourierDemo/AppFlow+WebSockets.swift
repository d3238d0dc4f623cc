import Courier
import Foundation

#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif

extension AppFlow {
    /// A chat line sent and echoed as a typed message, and a live socket that the server drops and
    /// that reconnects and subscribes again. Over URLSession on a platform whose libcurl has no
    /// WebSocket support, the refusal is shown and the step runs over AsyncHTTPClient.
    func showWebSockets() async {
        guard let webSocketURL else { return }
        transcript.heading("WebSockets: a chat line, and a live ticker across drops")
        struct ChatLine: Codable, Sendable, Equatable {
            var room: String
            var text: String
        }
        var client = Client(baseURL: webSocketURL, transport: transport)
        do {
            let socket = try await client.webSocket(Request<Void>(.get, "ws/echo"))
            await socket.close()
        } catch {
            #if AsyncHTTPClient
            transcript.line("this transport opens no WebSocket here (\(error.message ?? error.localizedDescription)); AsyncHTTPClient instead")
            client = Client(baseURL: webSocketURL, transport: .asyncHTTPClient())
            #else
            transcript.check(error.kind == .transportFailed, "this transport opens no WebSocket here: \(error.message ?? error.localizedDescription)")
            return
            #endif
        }
        do {
            let socket = try await client.webSocket(Request<Void>(.get, "ws/echo"))
            let line = ChatLine(room: "lobby", text: "hello from the demo")
            try await socket.send(encoding: line)
            var lines = socket.messages(as: ChatLine.self).makeAsyncIterator()
            let echoed = try await lines.next()
            await socket.close()
            transcript.check(echoed == line, "a chat line sent and echoed as a typed message: \"\(echoed?.text ?? "nothing")\"")

            // ws/ticker sends three ticks once subscribed, then drops the connection without a close.
            var policy = WebSocketReconnectPolicy()
            policy.initialDelay = .milliseconds(50)
            policy.maximumDelay = .milliseconds(200)
            let subscriptions = LockedState(0)
            let live = client.liveWebSocket(Request<Void>(.get, "ws/ticker", query: ["count": 3]), reconnect: policy) { socket in
                subscriptions.withLock { $0 += 1 }
                try await socket.send(.text("subscribe"))
            }
            var ticks: [String] = []
            for try await message in live.messages {
                if case .text(let text) = message { ticks.append(text) }
                if ticks.count == 6 { break }
            }
            await live.close()
            let subscribed = subscriptions.withLock { $0 }
            transcript.check(
                ticks == ["tick 1", "tick 2", "tick 3", "tick 1", "tick 2", "tick 3"] && subscribed >= 2,
                "a live socket dropped by the server reconnected and subscribed again (\(subscribed) subscriptions): \(ticks.joined(separator: ", "))"
            )
        } catch {
            transcript.check(false, "WebSockets failed: \(error.localizedDescription)")
        }
    }
}
