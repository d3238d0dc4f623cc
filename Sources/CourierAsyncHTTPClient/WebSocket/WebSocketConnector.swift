// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// The AsyncHTTPClient transport's WebSocket side: Courier's own handshake on SwiftNIO, so that
/// the client owns the handshake's answer (a refusal's status, fields and body), TLS trust and
/// pins, and every frame check.
///
/// `ws` for an `http` origin; `wss` for `https`, trusting the transport's roots and checking a
/// pinned host's pins before a byte of the handshake is sent.
struct WebSocketConnector: WebSocketTransport {
    let group: any EventLoopGroup
    let tls: TLSConfiguration
    let trust: ServerTrust?

    func openWebSocket(_ open: WebSocketOpenRequest) async throws -> WebSocketHandshake {
        do {
            return try await handshake(open)
        } catch {
            throw AsyncHTTPClientErrorClassifier.courierError(for: error)
        }
    }

    private func handshake(_ open: WebSocketOpenRequest) async throws -> WebSocketHandshake {
        let origin = open.origin
        let secure = origin.scheme?.lowercased() == "https"
        guard let host = origin.host, !host.isEmpty else {
            throw CourierError(.invalidRequest, message: "The WebSocket's origin has no host.")
        }
        let port = origin.port ?? (secure ? 443 : 80)
        let timeout = TimeAmount.nanoseconds(Int64(min(open.timeout / .nanoseconds(1), Double(Int64.max / 2))))
        let sslContext = secure ? try NIOSSLContext(configuration: tls) : nil
        let serverName = Self.isIPAddress(host) ? nil : host
        let eventLoop = group.next()
        let promise = eventLoop.makePromise(of: WebSocketHandshake.self)
        // NIO's frame decoder takes at most UInt32.max; a larger setting means "as large as it takes".
        let maximumFrameSize = max(1, min(open.maximumFrameSize, Int(UInt32.max)))
        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maximumFrameSize, automaticErrorHandling: false) { channel, _ in
            channel.eventLoop.makeSucceededVoidFuture()
        }
        let limits = (frame: maximumFrameSize, message: max(1, open.maximumMessageSize))
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: serverName))
                    }
                    let encoder = HTTPRequestEncoder()
                    let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
                    try pipeline.addHandlers([
                        encoder,
                        decoder,
                        WebSocketHandshakeHandler(
                            upgrader: upgrader,
                            promise: promise,
                            requestEncoder: encoder,
                            responseDecoder: decoder,
                            maximumFrameSize: limits.frame,
                            maximumMessageSize: limits.message
                        ),
                    ])
                }
            }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        let deadline = eventLoop.scheduleTask(in: timeout) {
            promise.fail(CourierError(.timedOut, message: "The server did not answer the WebSocket handshake in time."))
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        if secure, let trust, trust.pins(forHost: host.lowercased()) != nil {
            do {
                let certificate = try await channel.nioSSL_peerCertificate().get()
                try PinCheck(host: host.lowercased(), trust: trust).check(certificate)
            } catch {
                try? await channel.close()
                throw error
            }
        }
        var headers = HTTPClientTransport.headers(of: open.request)
        headers.replaceOrAdd(name: "Host", value: open.request.authority ?? Self.authority(host: host, port: port, secure: secure))
        headers.replaceOrAdd(name: "Upgrade", value: "websocket")
        headers.replaceOrAdd(name: "Connection", value: "Upgrade")
        upgrader.addCustom(upgradeRequestHeaders: &headers)
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: open.request.path ?? "/", headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        return try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            promise.fail(CancellationError())
            channel.close(promise: nil)
        }
    }

    private static func isIPAddress(_ host: String) -> Bool {
        (try? SocketAddress(ipAddress: host, port: 0)) != nil
    }

    private static func authority(host: String, port: Int, secure: Bool) -> String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? name : "\(name):\(port)"
    }
}

extension HTTPClientTransport {
    /// Opens WebSockets with Courier's own handshake on NIO, on the `HTTPClient`'s event loops
    /// and with this transport's TLS trust.
    public var webSockets: (any WebSocketTransport)? {
        WebSocketConnector(group: client.eventLoopGroup, tls: webSocketTLS, trust: trust)
    }
}
#endif
