import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOWebSocket

/// The WebSocket backend, on a listener of its own (``ReferenceServer/webSocketBaseURL``), decided
/// at the upgrade:
/// - `ws/echo`: every message back as it came (text as text, binary as binary);
/// - `ws/ticker?count=N`: after the client's first message, `tick 1` … `tick N`, then the
///   connection dropped without a close frame;
/// - `ws/flaky?count=N`: the echo for N messages, then the connection dropped without a close frame;
/// - `ws/private`: the echo, for a valid token (`Authorization: JWT <token>`, from the auth
///   routes on the same listener); otherwise no upgrade;
/// - `ws/forbidden` and `ws/redirect`: never upgraded;
/// - `ws/close?code=C&reason=R`: after the client's first message, a close from the server with
///   that code and reason;
/// - `ws/oversize?bytes=N`: one binary message of N bytes, then the echo.
///
/// Hummingbird answers every handshake it does not upgrade with a 400, whatever the HTTP routes
/// below would say to a plain `GET` (401, 403, 302): refusals with their own status come from the
/// tests' raw-socket server. Hummingbird answers pings while a handler reads; a peer that never
/// answers, and malformed frames, come from the raw-socket server too.
enum WebSocketRoutes {
    typealias Handler = WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>

    /// Frames up to 16 MiB each way, no pings of the server's own.
    static let configuration = WebSocketServerConfiguration(maxFrameSize: 16 << 20, autoPing: .disabled, closeTimeout: .seconds(2))

    /// Which handler takes a handshake, or none (the HTTP routes answer it).
    static func shouldUpgrade(store: ReferenceStore) -> @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<Handler> {
        { request, channel, _ in
            let target = request.path ?? "/"
            let components = URLComponents(string: target)
            let query = Dictionary(
                (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                uniquingKeysWith: { first, _ in first }
            )
            switch components?.path ?? target {
            case "/ws/echo":
                return .upgrade([:], echo)
            case "/ws/flaky":
                return .upgrade([:], flaky(count: Int(query["count"] ?? "") ?? 1, channel: channel))
            case "/ws/ticker":
                return .upgrade([:], ticker(count: Int(query["count"] ?? "") ?? 3, channel: channel))
            case "/ws/private":
                guard let token = accessToken(request, query: query), case .valid = await store.check(token: token) else { return .dontUpgrade }
                return .upgrade([:], echo)
            case "/ws/close":
                let code = Int(query["code"] ?? "") ?? 1000
                return .upgrade([:], closing(code: code, reason: query["reason"] ?? ""))
            case "/ws/oversize":
                return .upgrade([:], oversize(bytes: Int(query["bytes"] ?? "") ?? (1 << 20)))
            default:
                return .dontUpgrade
            }
        }
    }

    /// What a plain `GET` of the refusal routes answers (a declined handshake gets a 400, above).
    static func register(on router: Router<ReferenceRequestContext>, store: ReferenceStore) {
        router.get("ws/private") { request, _ -> Response in
            guard let token = request.accessToken else {
                return JSONResponse.message("Authentication required", status: .unauthorized)
            }
            switch await store.check(token: token) {
            case .valid: return JSONResponse.message("Not a WebSocket handshake", status: .badRequest)
            case .expired: return JSONResponse.message("Token expired", status: .unauthorized)
            case .unknown: return JSONResponse.message("Invalid token", status: .unauthorized)
            }
        }
        router.get("ws/forbidden") { _, _ -> Response in
            JSONResponse.message("You are not a member of this room", status: .forbidden)
        }
        router.get("ws/redirect") { _, _ -> Response in
            Response(status: .found, headers: [.location: "/ws/echo", .contentLength: "0"])
        }
    }

    private static func accessToken(_ request: HTTPRequest, query: [String: String]) -> String? {
        if let authorization = request.headerFields[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, ["jwt", "bearer"].contains(parts[0].lowercased()) { return String(parts[1]) }
        }
        return query["access_token"]
    }

    private static let echo: Handler = { inbound, outbound, _ in
        for try await message in inbound.messages(maxSize: 16 << 20) {
            switch message {
            case .text(let text): try await outbound.write(.text(text))
            case .binary(let bytes): try await outbound.write(.binary(bytes))
            }
        }
    }

    private static func ticker(count: Int, channel: any Channel) -> Handler {
        { inbound, outbound, _ in
            // The client's first message starts the ticks (as a subscription would).
            var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            guard try await messages.next() != nil else { return }
            for tick in 1...max(1, count) {
                try await outbound.write(.text("tick \(tick)"))
            }
            // Dropped, as a network would drop it: no close frame.
            try await channel.close()
        }
    }

    private static func flaky(count: Int, channel: any Channel) -> Handler {
        { inbound, outbound, _ in
            var echoed = 0
            for try await message in inbound.messages(maxSize: 16 << 20) {
                switch message {
                case .text(let text): try await outbound.write(.text(text))
                case .binary(let bytes): try await outbound.write(.binary(bytes))
                }
                echoed += 1
                if echoed >= count { break }
            }
            try await channel.close()
        }
    }

    private static func closing(code: Int, reason: String) -> Handler {
        { inbound, outbound, _ in
            // The client's first message asks for the close.
            var messages = inbound.messages(maxSize: 1 << 16).makeAsyncIterator()
            guard try await messages.next() != nil else { return }
            try await outbound.close(.init(codeNumber: code), reason: reason)
            // One iterator per socket: the client's answer to the close ends the same one.
            while try await messages.next() != nil {}
        }
    }

    private static func oversize(bytes: Int) -> Handler {
        { inbound, outbound, context in
            try await outbound.write(.binary(ByteBuffer(repeating: UInt8(ascii: "a"), count: bytes)))
            try await echo(inbound, outbound, context)
        }
    }
}
