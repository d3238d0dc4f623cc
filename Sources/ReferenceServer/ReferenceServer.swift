import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle

/// The example backends of Courier's documentation as a real HTTP server: social (`/api/v1`),
/// movies shaped like TheMovieDB (`/3`), auth (`/authenticate`, `/token`), analytics (`/v1/events`),
/// plus `/echo` for inspecting requests, `/flaky` and `/limited` for retry and rate-limit scenarios,
/// `/files` for large downloads and uploads, `/redirect` for redirects (also to the analytics port),
/// `/cookies` and `/basic-auth` as common test servers have them, `/certificate-refusal` as nginx
/// refuses a client certificate after the TLS handshake, `/cache` for HTTP caching,
/// `/journal` for counting applied changes, and fault injection on every route.
///
/// Every POST, PUT, PATCH and DELETE with an `Idempotency-Key` runs once on the main port, as on
/// Stripe's API: a replay of the key gets the first result (`Idempotent-Replayed: true`) and
/// changes nothing; a replay with another body is refused with 422.
///
/// It behaves as real servers do: every 401 carries a `WWW-Authenticate` challenge (Bearer, RFC
/// 6750; Basic on `/basic-auth`), text and JSON bodies of 1 KiB or more are compressed with gzip
/// or deflate when the request accepts it, and `/cookies` sets cookies with `Set-Cookie`.
///
/// Start it in-process for integration tests; it binds 127.0.0.1 (port 0 picks a free port) and
/// serves analytics on a second port as well:
///
/// ```swift
/// let server = try await ReferenceServer.start()
/// defer { Task { await server.stop() } }
/// let social = Client(baseURL: "\(server.baseURL)/api/v1")
/// ```
///
/// Fault injection: send `X-Fault` (or a `_fault` query item) with comma-separated directives —
/// `delay=MS`, `status=CODE`, `message=TEXT`, `close`, `reset`, `truncate`, `trickle=MS`,
/// `malformed`, `wrong-shape`, `wrong-content-type`, `empty`, `no-content`, `huge=BYTES`,
/// `compress=gzip|deflate` (whatever the request accepts), `gzip-bomb=BYTES`.
///
/// HTTPS: set ``Options/tls`` to a ``LoopbackCertificates`` and both ports serve TLS with its
/// server certificate (``baseURL`` then starts with `https://`); with ``Options/offersHTTP2`` as
/// well, they offer HTTP/2 (`h2`) and HTTP/1.1 by ALPN. ``requestRecords`` says which protocol
/// and which connection each request came on.
public final class ReferenceServer: Sendable {
    /// How to run the server.
    public struct Options: Sendable {
        /// The address to bind; loopback by default.
        public var host = "127.0.0.1"
        /// The main port; 0 picks a free one.
        public var port = 0
        /// The analytics backend's port; 0 picks a free one.
        public var analyticsPort = 0
        /// How long issued access tokens live.
        public var tokenLifetime: Duration = .seconds(3600)
        /// How long access tokens issued by a refresh live; ``tokenLifetime`` when `nil`. Tests
        /// that let a login's token expire give refreshed ones longer, so a slow machine cannot
        /// let those expire too before the requests that waited for them are answered.
        public var refreshedTokenLifetime: Duration?
        /// The movie backend's valid `api_key`.
        public var movieAPIKey = "courier-demo-key"
        /// The server's own log level; `critical` keeps demo and test output quiet.
        public var logLevel: Logger.Level = .critical
        /// Serve HTTPS with these certificates instead of plain HTTP.
        public var tls: LoopbackCertificates?
        /// With ``tls``: the main listener requires a client certificate signed by its root
        /// (``LoopbackCertificates/clientCertificate(commonName:expired:)``), over TLS 1.2, so that
        /// a refused certificate ends the handshake with the alert that says why.
        public var requiresClientCertificate = false
        /// With ``tls``: the main and analytics listeners offer HTTP/2 (`h2`) and HTTP/1.1 by ALPN,
        /// as nginx's `listen … ssl http2` does; without it they speak HTTP/1.1 only. Without
        /// ``tls`` it changes nothing: HTTP/2 is negotiated only over TLS.
        public var offersHTTP2 = false

        /// Default options.
        public init() {}
    }

    /// The e-mail and password of the demo account (Ada Lovelace, user 1).
    public static let demoCredentials = (email: "ada@example.com", password: "correct horse battery staple")

    /// The main port.
    public let port: Int
    /// The analytics port.
    public let analyticsPort: Int
    /// The WebSocket listener's port: its routes (``WebSocketRoutes``) and the auth routes.
    public let webSocketPort: Int
    /// The host it is bound to.
    public let host: String
    /// The movie backend's valid `api_key`.
    public let movieAPIKey: String
    private let store: ReferenceStore
    private let ledger: ReliabilityLedger
    private let idempotency: IdempotencyLedger
    private let requests: RequestCounter
    private let recorder: RequestRecorder
    private let caching: CacheLedger
    private let scheme: String
    private let servers: [RunningApplication]

    private init(
        host: String,
        port: Int,
        analyticsPort: Int,
        webSocketPort: Int,
        movieAPIKey: String,
        store: ReferenceStore,
        ledger: ReliabilityLedger,
        idempotency: IdempotencyLedger,
        requests: RequestCounter,
        recorder: RequestRecorder,
        caching: CacheLedger,
        scheme: String,
        servers: [RunningApplication]
    ) {
        self.ledger = ledger
        self.caching = caching
        self.idempotency = idempotency
        self.requests = requests
        self.recorder = recorder
        self.scheme = scheme
        self.host = host
        self.port = port
        self.analyticsPort = analyticsPort
        self.webSocketPort = webSocketPort
        self.movieAPIKey = movieAPIKey
        self.store = store
        self.servers = servers
    }

    /// `http://127.0.0.1:PORT` (`https` with ``Options/tls``).
    public var baseURL: String { "\(scheme)://\(host):\(port)" }
    /// `http://127.0.0.1:ANALYTICS_PORT` (`https` with ``Options/tls``).
    public var analyticsBaseURL: String { "\(scheme)://\(host):\(analyticsPort)" }
    /// `http://127.0.0.1:WEBSOCKET_PORT` (`https` with ``Options/tls``): the base URL of a client
    /// whose sockets open `ws://` (`wss://`) there.
    public var webSocketBaseURL: String { "\(scheme)://\(host):\(webSocketPort)" }

    /// How many requests have reached the routes of either port (a TLS handshake the client
    /// refused adds none).
    public var requestCount: Int { requests.value }

    /// Every request that has reached the main or analytics port, in arrival order: its protocol,
    /// method, target and connection, recorded before any route or fault runs.
    public var requestRecords: [RequestRecord] { recorder.all }

    /// How many token refreshes the auth backend has served.
    public var refreshCount: Int {
        get async { await store.refreshCount }
    }

    /// How many requests `/flaky/{key}` has received for `key` (`pages-{key}` for `/pages/{key}`).
    public func hits(forKey key: String) async -> Int {
        await ledger.hits(for: key)
    }

    /// How many requests `/cache/{key}` has received for `key`, 304s included.
    public func cacheHits(forKey key: String) async -> Int {
        await caching.hits(for: key)
    }

    /// How many conditional requests to `/cache/{key}` were answered 304.
    public func notModifiedCount(forKey key: String) async -> Int {
        await caching.notModifiedCount(for: key)
    }

    /// The validator (`If-None-Match`, else `If-Modified-Since`) of each request to
    /// `/cache/{key}`, in order; `""` for a request without one.
    public func validatorsSent(forKey key: String) async -> [String] {
        await caching.validatorsSent(for: key)
    }

    /// The values `/journal/{name}` has appended, in order.
    public func journal(_ name: String) async -> [Int] {
        await ledger.journal(name)
    }

    /// How many friendships `POST /api/v1/friends` has created.
    public var friendAdditionCount: Int {
        get async { await store.friendAdditionCount }
    }

    /// How many requests got the first result of their `Idempotency-Key` again instead of running.
    public var idempotentReplayCount: Int {
        get async { await idempotency.replays }
    }

    /// How many requests `/limited` has refused with 429.
    public var rateLimitRejections: Int {
        get async { await ledger.rateLimitRejections }
    }

    /// How many analytics events have been accepted.
    public var analyticsEventCount: Int {
        get async { await store.analyticsEventCount }
    }

    /// Starts both servers and returns once they accept connections.
    /// - Parameter options: Host, ports, token lifetime, API key.
    /// - Returns: The running server.
    /// - Throws: When a port cannot be bound.
    public static func start(_ options: Options = Options()) async throws -> ReferenceServer {
        var logger = Logger(label: "courier.reference-server")
        logger.logLevel = options.logLevel
        let store = ReferenceStore(
            tokenLifetime: options.tokenLifetime,
            refreshedTokenLifetime: options.refreshedTokenLifetime ?? options.tokenLifetime
        )
        let ledger = ReliabilityLedger()
        let idempotency = IdempotencyLedger()
        let requests = RequestCounter()
        let recorder = RequestRecorder()
        let streams = StreamLedger()
        let caching = CacheLedger()
        let server = try serverBuilder(
            tls: options.tls,
            requiringClientCertificate: options.requiresClientCertificate,
            offeringHTTP2: options.offersHTTP2
        )

        let main = Router(context: ReferenceRequestContext.self)
        main.add(middleware: recorder.middleware)
        main.add(middleware: FaultInjectionMiddleware(requests: requests))
        main.add(middleware: ChallengeMiddleware())
        main.add(middleware: CompressionMiddleware())
        main.add(middleware: IdempotencyMiddleware(ledger: idempotency))
        SocialRoutes.register(on: main, store: store)
        MovieRoutes.register(on: main, apiKey: options.movieAPIKey)
        AuthRoutes.register(on: main, store: store)
        AnalyticsRoutes.register(on: main, store: store)
        EchoRoutes.register(on: main)
        BenchRoutes.register(on: main)
        FileRoutes.register(on: main)
        RangeRoutes.register(on: main)
        FormRoutes.register(on: main)
        RedirectRoutes.register(on: main)
        CookieRoutes.register(on: main)
        BasicAuthRoutes.register(on: main)
        CertificateRefusalRoutes.register(on: main)
        ReliabilityRoutes.register(on: main, ledger: ledger)
        PageRoutes.register(on: main, ledger: ledger)
        JournalRoutes.register(on: main, ledger: ledger)
        StreamRoutes.register(on: main, ledger: streams)
        CacheRoutes.register(on: main, ledger: caching)

        let analytics = Router(context: ReferenceRequestContext.self)
        analytics.add(middleware: recorder.middleware)
        analytics.add(middleware: FaultInjectionMiddleware(requests: requests))
        analytics.add(middleware: ChallengeMiddleware())
        analytics.add(middleware: CompressionMiddleware())
        AnalyticsRoutes.register(on: analytics, store: store)
        EchoRoutes.register(on: analytics)

        // The WebSocket routes on a listener of their own, so the HTTP listeners stay plain HTTP/1.1.
        let sockets = Router(context: ReferenceRequestContext.self)
        AuthRoutes.register(on: sockets, store: store)
        WebSocketRoutes.register(on: sockets, store: store)

        let mainServer = try await run(main, server: server, host: options.host, port: options.port, logger: logger)
        var started = [mainServer]
        do {
            let analyticsServer = try await run(
                analytics,
                server: server,
                host: options.host,
                port: options.analyticsPort,
                logger: logger
            )
            started.append(analyticsServer)
            let webSocketServer = try await run(
                sockets,
                server: try webSocketServerBuilder(tls: options.tls, store: store),
                host: options.host,
                port: 0,
                logger: logger
            )
            return ReferenceServer(
                host: options.host,
                port: mainServer.port,
                analyticsPort: analyticsServer.port,
                webSocketPort: webSocketServer.port,
                movieAPIKey: options.movieAPIKey,
                store: store,
                ledger: ledger,
                idempotency: idempotency,
                requests: requests,
                recorder: recorder,
                caching: caching,
                scheme: options.tls == nil ? "http" : "https",
                servers: [mainServer, analyticsServer, webSocketServer]
            )
        } catch {
            for server in started { await server.stop() }
            throw error
        }
    }

    /// Stops both servers and waits until they have closed: they stop accepting, finish the
    /// requests in progress for up to a second, then cancel the rest.
    public func stop() async {
        for server in servers { await server.stop() }
    }

    /// Serves until cancelled: the caller's task runs the servers (for `courier-demo serve`).
    public func waitUntilStopped() async {
        await withTaskCancellationHandler {
            for server in servers { _ = await server.task.result }
        } onCancel: {
            for server in servers { Task { await server.group.triggerGracefulShutdown() } }
        }
    }

    /// One application, running in a task of its own under a service group that can shut it down
    /// gracefully.
    ///
    /// Cancelling a Hummingbird server's task outright can crash the process (NIO's "Deinited
    /// NIOAsyncWriter without calling finish()", apple/swift-nio#3481) when a connection it has
    /// accepted was not yet handed to the server; a graceful shutdown first closes the listener
    /// and serves what it accepted.
    struct RunningApplication: Sendable {
        let port: Int
        let group: ServiceGroup
        let task: Task<Void, any Error>

        func stop() async {
            await group.triggerGracefulShutdown()
            _ = await task.result
        }
    }

    /// HTTP/1.1, wrapped in TLS when certificates are given; over TLS, HTTP/2 as well when asked.
    private static func serverBuilder(
        tls: LoopbackCertificates?,
        requiringClientCertificate: Bool,
        offeringHTTP2: Bool
    ) throws -> HTTPServerBuilder {
        guard let tls else { return .http1() }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(tls.serverCertificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(tls.serverPrivateKeyPEM.utf8), format: .pem))
        )
        if requiringClientCertificate {
            configuration.certificateVerification = .noHostnameVerification
            configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(tls.rootCertificatePEM.utf8)))
            configuration.maximumTLSVersion = .tlsv12
        }
        if offeringHTTP2 { return try .http2Upgrade(tlsConfiguration: configuration) }
        return try .tls(.http1(), tlsConfiguration: configuration)
    }

    /// Runs one application in a task; returns once it listens.
    /// The server's own I/O threads, as a server on another machine has: never the client's
    /// (NIO's shared group, where AsyncHTTPClient runs). On shared threads, a client's connection
    /// completed only once the server had worked through what a storm of cancelled calls left it,
    /// and a busy machine made that last past the client's 5-second connect timeout.
    /// HTTP/1.1 with the WebSocket upgrade of ``WebSocketRoutes``, over TLS when asked.
    private static func webSocketServerBuilder(tls: LoopbackCertificates?, store: ReferenceStore) throws -> HTTPServerBuilder {
        let upgrade = HTTPServerBuilder.http1WebSocketUpgrade(
            configuration: HTTP1WebSocketUpgradeChannel.Configuration(ws: WebSocketRoutes.configuration),
            shouldUpgrade: WebSocketRoutes.shouldUpgrade(store: store)
        )
        guard let tls else { return upgrade }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(tls.serverCertificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(tls.serverPrivateKeyPEM.utf8), format: .pem))
        )
        return try .tls(upgrade, tlsConfiguration: configuration)
    }

    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    private static func run(
        _ router: Router<ReferenceRequestContext>,
        server: HTTPServerBuilder,
        host: String,
        port: Int,
        logger: Logger
    ) async throws -> RunningApplication {
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        // A backlog as large as Linux allows by default (`net.core.somaxconn`), as production
        // servers configure it: with Hummingbird's 256, bursts of connections opened and closed
        // by cancelled calls overflowed the accept queue, and the dropped connection attempts were
        // retried by the kernel after 1 and 3 s, past a client's 5-second connect timeout.
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "courier-reference", backlog: 4096),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? port)
                portContinuation.finish()
            },
            eventLoopGroupProvider: .shared(eventLoops),
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
        // Requests still running then (a fault that stalls for 30 s) are cancelled.
        configuration.maximumGracefulShutdownDuration = .seconds(1)
        let group = ServiceGroup(configuration: configuration)
        let task = Task {
            defer { portContinuation.finish() }
            try await group.run()
        }
        for await boundPort in portStream {
            return RunningApplication(port: boundPort, group: group, task: task)
        }
        // The stream ended without a port: the server failed to start.
        if case .failure(let error) = await task.result { throw error }
        throw CancellationError()
    }
}
