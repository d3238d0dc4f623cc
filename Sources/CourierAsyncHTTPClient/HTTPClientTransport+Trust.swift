// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

extension HTTPClientTransport {
    /// A transport that trusts `trust`'s additional root certificates and checks every new
    /// connection to a pinned host against that host's public-key pins.
    ///
    /// ```swift
    /// let transport = try HTTPClientTransport(trust: ServerTrust(
    ///     additionalRootCertificates: [rootPEM],
    ///     pins: ["api.example.com": [try PublicKeyPin(sha256Base64: currentKey), try PublicKeyPin(sha256Base64: backupKey)]]
    /// ))
    /// let client = Client(baseURL: "https://api.example.com", transport: transport)
    /// // …
    /// try await transport.shutdown()
    /// ```
    ///
    /// The check runs when the TLS handshake has finished and before the connection carries a
    /// request: a server whose certificate's SubjectPublicKeyInfo hashes to none of the pins gets
    /// its connection closed, and the request fails with ``Courier/CourierError/Kind/untrustedServer``
    /// without a byte of it sent. A certificate that does not chain to a trusted root or does not
    /// name the host fails the same way, during the handshake.
    ///
    /// The transport creates its `HTTPClient`s (one for unpinned hosts, one per pinned host, so a
    /// connection is always checked against the pins of the host it was opened for): call
    /// ``shutdown()`` when done with it.
    ///
    /// With a `proxy`, every request goes through it except those to the hosts it bypasses, which
    /// have a client of their own. An HTTP proxy is asked for a tunnel with `CONNECT` (with Basic
    /// credentials when given) for `http` and `https` origins alike; a SOCKS5 proxy is used
    /// without credentials. A proxy that answers 407, or a SOCKS5 proxy that wants credentials,
    /// fails the request with ``Courier/CourierError/Kind/proxyAuthenticationRequired``; a proxy
    /// that refuses the tunnel, with ``Courier/CourierError/Kind/notConnected`` and a message that
    /// says so. WebSockets go through the same proxy (a `CONNECT` tunnel, or SOCKS5), except to
    /// the hosts it bypasses.
    ///
    /// With a `clientIdentity`, every TLS connection (requests and `wss` sockets) presents it to a
    /// server that asks for a client certificate. A server that refuses it, or requires one when
    /// none is given, fails the request with ``Courier/CourierError/Kind/clientCertificateRefused``
    /// and a message saying why (missing, expired, or from an issuer it does not trust).
    ///
    /// - Parameters:
    ///   - trust: Extra roots and per-host pins.
    ///   - clientIdentity: The client certificate and key for mutual TLS, if any.
    ///   - proxy: The proxy requests go through, if any.
    ///   - eventLoopGroup: Where the connections run; NIO's shared group by default.
    ///   - configuration: The clients' configuration; its TLS and proxy settings are replaced.
    /// - Throws: ``Courier/CourierError/Kind/invalidRequest`` when a root certificate is not valid PEM
    ///   or not a certificate, when `clientIdentity` cannot be read or its key does not match its
    ///   certificate, when `proxy` has no host or a port outside 1...65535, or when it is a SOCKS5
    ///   proxy with credentials (AsyncHTTPClient cannot send them: use an HTTP `CONNECT` proxy, or
    ///   SOCKS5 without credentials).
    public init(
        trust: ServerTrust,
        clientIdentity: ClientIdentity? = nil,
        proxy: Proxy? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        configuration: HTTPClient.Configuration = HTTPClient.courierConfiguration()
    ) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        let der = try trust.rootCertificatesDER()
        do {
            let roots = try der.map { try NIOSSLCertificate(bytes: Array($0), format: .der) }
            if !roots.isEmpty { tls.additionalTrustRoots = [.certificates(roots)] }
        } catch {
            throw CourierError(.invalidRequest, message: "A root certificate is not a valid X.509 certificate.", underlyingError: error)
        }
        if let clientIdentity { try Self.present(clientIdentity, in: &tls) }
        var direct = configuration
        direct.tlsConfiguration = tls
        direct.proxy = nil
        var general = direct
        general.proxy = try proxy.map(Self.proxyConfiguration)
        var pinnedClients: [String: HTTPClient] = [:]
        for host in trust.pins.keys {
            var pinned = proxy?.bypasses(host) == true ? direct : general
            let check = PinCheck(host: host, trust: trust)
            pinned.http1_1ConnectionDebugInitializer = check.verify
            pinned.http2ConnectionDebugInitializer = check.verify
            pinnedClients[host] = HTTPClient(eventLoopGroup: eventLoopGroup, configuration: pinned)
        }
        let bypassing = (proxy?.bypassedHosts.isEmpty ?? true) ? nil : proxy
        self.init(
            client: HTTPClient(eventLoopGroup: eventLoopGroup, configuration: general),
            directClient: bypassing.map { (HTTPClient(eventLoopGroup: eventLoopGroup, configuration: direct), $0) },
            pinnedClients: pinnedClients,
            ownsClients: true,
            deadline: .seconds(300),
            contentCodings: Self.contentCodings(of: configuration),
            webSocketTLS: tls,
            trust: trust,
            webSocketProxy: proxy
        )
    }

    /// Shuts down the `HTTPClient`s this transport created; a client passed to
    /// ``init(client:deadline:)`` stays yours and is left running.
    /// - Throws: AsyncHTTPClient's error when a client fails to shut down.
    public func shutdown() async throws {
        guard ownsClients else { return }
        for pinned in pinnedClients.values { try await pinned.shutdown() }
        try await directClient?.client.shutdown()
        try await client.shutdown()
    }
}

extension HTTPClientTransport {
    /// Sets `identity` as the certificate chain and key `tls` presents, after checking that they
    /// can be read and belong together.
    static func present(_ identity: ClientIdentity, in tls: inout TLSConfiguration) throws(CourierError) {
        let credentials = try identity.nioSSLCredentials()
        tls.certificateChain = credentials.chain.map { .certificate($0) }
        tls.privateKey = .privateKey(credentials.key)
        do {
            _ = try NIOSSLContext(configuration: tls)
        } catch {
            throw CourierError(.invalidRequest, message: "The client certificate's private key does not belong to the certificate.")
        }
    }

    /// AsyncHTTPClient's setting for `proxy`.
    static func proxyConfiguration(_ proxy: Proxy) throws(CourierError) -> HTTPClient.Configuration.Proxy {
        try proxy.checkAddress()
        switch proxy.kind {
        case .httpConnect:
            let authorization = proxy.credentials.map { HTTPClient.Authorization.basic(username: $0.username, password: $0.password) }
            return .server(host: proxy.host, port: proxy.port, authorization: authorization)
        case .socks5:
            guard proxy.credentials == nil else {
                throw CourierError(
                    .invalidRequest,
                    message: "AsyncHTTPClient cannot send credentials to a SOCKS5 proxy (\(proxy)). "
                        + "Use an HTTP CONNECT proxy with credentials, or a SOCKS5 proxy that needs none."
                )
            }
            return .socksServer(host: proxy.host, port: proxy.port)
        }
    }

    /// The codings a client with `configuration` decodes.
    static func contentCodings(of configuration: HTTPClient.Configuration) -> Set<ContentCoding> {
        if case .enabled = configuration.decompression { [.deflate, .gzip] } else { [] }
    }
}

/// The check of one host's pins on a freshly opened connection.
struct PinCheck: Sendable {
    let host: String
    let trust: ServerTrust

    /// Succeeds when the peer's certificate matches a pin; otherwise closes the channel and fails.
    @Sendable func verify(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.nioSSL_peerCertificate().flatMapThrowing { certificate in
            do {
                try check(certificate)
            } catch {
                channel.close(promise: nil)
                throw error
            }
        }
    }

    func check(_ certificate: NIOSSLCertificate?) throws {
        guard let certificate else {
            throw CourierError(.untrustedServer, message: "\(host) presented no certificate to check against its pins.")
        }
        let digest: [UInt8]
        do {
            digest = SHA256.hash(try certificate.extractPublicKey().toSPKIBytes())
        } catch {
            throw CourierError(.untrustedServer, message: "The public key of \(host)'s certificate could not be read.", underlyingError: error)
        }
        guard trust.permits(host: host, publicKeySHA256: digest) else {
            let presented = (try? PublicKeyPin(sha256: digest)).map(String.init(describing:)) ?? "?"
            let expected = (trust.pins(forHost: host) ?? []).map(String.init(describing:)).sorted()
            throw CourierError(
                .untrustedServer,
                message: "\(host) presented public key \(presented), which matches none of its \(expected.count) pins: "
                    + expected.joined(separator: ", ") + "."
            )
        }
    }
}
#endif
