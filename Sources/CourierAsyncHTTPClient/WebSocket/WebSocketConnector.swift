// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier
import Foundation
import HTTPTypes
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import NIOSOCKS
import NIOSSL
import NIOTLS
import NIOWebSocket

/// The AsyncHTTPClient transport's WebSocket side: Courier's own handshake on SwiftNIO, so that
/// the client owns the handshake's answer (a refusal's status, fields and body), TLS trust and
/// pins, and every frame check.
///
/// A socket opens in stages, each on the connection once the one before it is done: the TCP
/// connection (to the proxy, unless it bypasses the host); the proxy's tunnel (`CONNECT`, or
/// SOCKS5); for `wss`, the TLS handshake with the transport's roots, then the host's pins checked
/// against the certificate the handshake delivered; then the upgrade request. Each stage that
/// fails closes the connection and leaves nothing waiting; the handshake's deadline and the
/// caller's cancellation close it at any stage.
struct WebSocketConnector: WebSocketTransport {
    let group: any EventLoopGroup
    let tls: TLSConfiguration
    let trust: ServerTrust?
    /// The proxy sockets go through, unless it bypasses their host.
    let proxy: Proxy?

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
        let route = proxy.flatMap { $0.bypasses(host.lowercased()) ? nil : $0 }
        let eventLoop = group.next()
        let channel = try await ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .connect(host: route?.host ?? host, port: route?.port ?? port)
            .get()
        let timedOut = LockedState(false)
        let deadline = eventLoop.scheduleTask(in: timeout) {
            timedOut.withLock { $0 = true }
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        do {
            return try await withTaskCancellationHandler {
                if let route { try await Self.tunnel(channel, through: route, to: host, port: port, timeout: timeout) }
                if let sslContext { try await startTLS(channel, context: sslContext, host: host) }
                return try await upgrade(channel, open, host: host, port: port, secure: secure)
            } onCancel: {
                channel.close(promise: nil)
            }
        } catch {
            channel.close(promise: nil)
            if Task.isCancelled { throw CancellationError() }
            if timedOut.withLock({ $0 }) {
                throw CourierError(.timedOut, message: "The WebSocket was not open within \(open.timeout).")
            }
            throw error
        }
    }

    /// The TLS handshake, then the host's pins checked against the certificate it delivered.
    private func startTLS(_ channel: any Channel, context: NIOSSLContext, host: String) async throws {
        let serverName = Self.isIPAddress(host) ? nil : host
        try await channel.runStage("the TLS handshake") {
            [try NIOSSLClientHandler(context: context, serverHostname: serverName)]
        } isCompletion: { event in
            if case .handshakeCompleted = event as? TLSUserEvent { return true }
            return false
        }
        if let trust, trust.pins(forHost: host.lowercased()) != nil {
            let certificate = try await channel.nioSSL_peerCertificate().get()
            try PinCheck(host: host.lowercased(), trust: trust).check(certificate)
        }
    }

    /// Sends the upgrade request and waits for the server's answer.
    private func upgrade(_ channel: any Channel, _ open: WebSocketOpenRequest, host: String, port: Int, secure: Bool) async throws -> WebSocketHandshake {
        // NIO's frame decoder takes at most UInt32.max; a larger setting means "as large as it takes".
        let maximumFrameSize = max(1, min(open.maximumFrameSize, Int(UInt32.max)))
        let maximumMessageSize = max(1, open.maximumMessageSize)
        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maximumFrameSize, automaticErrorHandling: false) { channel, _ in
            channel.eventLoop.makeSucceededVoidFuture()
        }
        var headers = HTTPClientTransport.headers(of: open.request)
        headers.replaceOrAdd(name: "Host", value: open.request.authority ?? Self.authority(host: host, port: port, secure: secure))
        headers.replaceOrAdd(name: "Upgrade", value: "websocket")
        headers.replaceOrAdd(name: "Connection", value: "Upgrade")
        upgrader.addCustom(upgradeRequestHeaders: &headers)
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: open.request.path ?? "/", headers: headers)
        return try await channel.eventLoop.flatSubmit {
            let promise = channel.eventLoop.makePromise(of: WebSocketHandshake.self)
            do {
                let encoder = HTTPRequestEncoder()
                let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes))
                try channel.pipeline.syncOperations.addHandlers([
                    encoder,
                    decoder,
                    WebSocketHandshakeHandler(
                        upgrader: upgrader,
                        promise: promise,
                        requestEncoder: encoder,
                        responseDecoder: decoder,
                        maximumFrameSize: maximumFrameSize,
                        maximumMessageSize: maximumMessageSize
                    ),
                ])
            } catch {
                promise.fail(error)
                return promise.futureResult
            }
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            return promise.futureResult
        }.get()
    }

    /// Asks `proxy` for a tunnel to `host` and `port`: `CONNECT` with Basic credentials when
    /// given, or SOCKS5 without.
    private static func tunnel(_ channel: any Channel, through proxy: Proxy, to host: String, port: Int, timeout: TimeAmount) async throws {
        switch proxy.kind {
        case .httpConnect:
            var headers = HTTPHeaders()
            if let credentials = proxy.credentials {
                let token = Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
                headers.add(name: "Proxy-Authorization", value: "Basic \(token)")
            }
            try await connectTunnel(channel, proxy: proxy, host: host, port: port, headers: headers, timeout: timeout)
        case .socks5:
            guard proxy.credentials == nil else {
                throw CourierError(.invalidRequest, message: "A SOCKS5 proxy is used without credentials (\(proxy)).")
            }
            do {
                try await channel.runStage("the SOCKS5 proxy's handshake", leaving: true) {
                    [SOCKSClientHandler(targetAddress: .domain(host, port: port))]
                } isCompletion: { event in
                    event is SOCKSProxyEstablishedEvent
                }
            } catch let error as SOCKSError.ConnectionFailed {
                throw CourierError(.notConnected, message: "The SOCKS5 proxy \(proxy) could not reach \(host):\(port).", underlyingError: error)
            } catch is SOCKSError.InvalidAuthenticationSelection {
                throw CourierError(.proxyAuthenticationRequired, message: "The SOCKS5 proxy \(proxy) asks for credentials, which Courier does not send.")
            }
        }
    }

    /// The `CONNECT` exchange; the HTTP codec leaves the pipeline once the tunnel is up.
    private static func connectTunnel(
        _ channel: any Channel,
        proxy: Proxy,
        host: String,
        port: Int,
        headers: HTTPHeaders,
        timeout: TimeAmount
    ) async throws {
        let names = (encoder: "courier.proxy.encoder", decoder: "courier.proxy.decoder", connect: "courier.proxy.connect")
        do {
            try await channel.eventLoop.flatSubmit {
                let promise = channel.eventLoop.makePromise(of: Void.self)
                do {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(HTTPRequestEncoder(), name: names.encoder)
                    try pipeline.addHandler(ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .forwardBytes)), name: names.decoder)
                    try pipeline.addHandler(
                        NIOHTTP1ProxyConnectHandler(targetHost: host, targetPort: port, headers: headers, deadline: .now() + timeout, promise: promise),
                        name: names.connect
                    )
                } catch {
                    promise.fail(error)
                }
                return promise.futureResult.assumeIsolated().flatMap {
                    for name in [names.connect, names.decoder] {
                        channel.pipeline.syncOperations.removeHandler(name: name, promise: nil)
                    }
                    return channel.pipeline.syncOperations.removeHandler(name: names.encoder)
                }.nonisolated()
            }.get()
        } catch let error as NIOHTTP1ProxyConnectHandler.Error {
            throw proxyError(error, proxy: proxy, host: host, port: port)
        }
    }

    /// What a refused `CONNECT` means for the app.
    private static func proxyError(_ error: NIOHTTP1ProxyConnectHandler.Error, proxy: Proxy, host: String, port: Int) -> CourierError {
        if error == .proxyAuthenticationRequired() {
            return CourierError(
                .proxyAuthenticationRequired,
                message: "The proxy \(proxy) asks for credentials (407): give the Proxy credentials it accepts.",
                underlyingError: error
            )
        }
        return CourierError(
            .notConnected,
            message: "The proxy \(proxy) refused a tunnel to \(host):\(port) (many proxies allow CONNECT to port 443 only).",
            underlyingError: error
        )
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
    /// Opens WebSockets with Courier's own handshake on NIO, on the `HTTPClient`'s event loops,
    /// with this transport's TLS trust and pins and through its proxy.
    public var webSockets: (any WebSocketTransport)? {
        WebSocketConnector(group: client.eventLoopGroup, tls: webSocketTLS, trust: trust, proxy: webSocketProxy)
    }
}
#endif
