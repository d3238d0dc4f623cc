// The transports compared include AsyncHTTPClient: built with the package trait `AsyncHTTPClient`
// (`swift run -c release --traits AsyncHTTPClient courier-bench`); CourierBench+WithoutTrait.swift otherwise.
#if AsyncHTTPClient
import ArgumentParser
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import ExampleAPIs
import Foundation
import OpenAPIAsyncHTTPClient
import ReferenceServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `courier-bench`: the same workloads through a raw transport and through Courier over that
/// transport, alternating in rounds within one run, against the reference server on 127.0.0.1.
@main
struct CourierBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier-bench",
        abstract: "Compare Courier with the raw transport it runs on (run with -c release)."
    )

    enum TransportName: String, ExpressibleByArgument, CaseIterable {
        case ahc, urlsession
        /// Courier over swift-openapi-async-http-client's transport instead of its own, against raw
        /// AsyncHTTPClient: the measurement behind writing `HTTPClientTransport`.
        case ahcOpenAPI = "ahc_openapi"
    }

    @Flag(help: "A subset that runs in under a minute: AHC, small JSON and 10 KB list, 64 in flight.")
    var quick = false

    @Flag(help: "Only the in-process cost of the layer itself, in ns per request.")
    var micro = false

    @Flag(help: "Only the soak: 20,000 mixed example-app requests, 256 in flight, on each transport.")
    var soak = false

    @Option(help: "Requests per transport in the soak.")
    var soakRequests = 20_000

    @Option(help: "Only workloads (or, with --micro, measurements) whose name starts with this (e.g. download, get_small, decode_list), for profiling.")
    var only: String?

    @Option(name: .customLong("transport"), help: "Only this transport (ahc, urlsession, ahc_openapi), for profiling.")
    var onlyTransport: TransportName?

    @Option(name: .customLong("concurrency"), help: "Only this many requests in flight (1, 16 or 64), for profiling.")
    var onlyConcurrency: Int?

    enum Side: String, ExpressibleByArgument {
        case raw, courier
    }

    @Option(name: .customLong("side"), help: "Only this side (raw or courier) of request workloads, for profiling one of them; no ratio.")
    var onlySide: Side?

    @Option(help: "Seconds per side per round.")
    var seconds = 2.0

    @Option(help: "Rounds; raw and Courier alternate within each round.")
    var rounds = 3

    @Flag(help: "Run against `courier-demo serve` in another process, started here: CPU and context switches are the client's alone.")
    var externalServer = false

    @Option(help: "Run against a server already running at this URL (a `courier-demo serve`), in another process.")
    var serverURL: String?

    @Option(help: "The WebSocket listener's origin of the server at --server-url (`courier-demo serve` prints it), with --web-sockets.")
    var webSocketURL: String?

    @Flag(help: "Only the offline queue: enqueue latency, and a drain against sending the same requests directly.")
    var offlineQueue = false

    @Option(help: "Entries per transport, with --offline-queue.")
    var queueEntries = 1000

    @Flag(help: "Only the streams: a JSON Lines export and server-sent events, Courier against the raw bytes, with peak memory.")
    var streams = false

    @Flag(help: "Only the cache and coalescing: the list from the network, from memory and from disk; coalescing on and off.")
    var cache = false

    @Flag(help: "Only the WebSocket echo: round trips per second on 1 and 64 sockets, Courier against swift-websocket's WSClient.")
    var webSockets = false

    @Flag(help: "Courier's clients with coalescing off, to see what coalescing costs a request nobody joins.")
    var noCoalescing = false

    @Flag(help: "Only HTTP/2: small JSON at 64 in flight against `courier-demo serve --tls` in another process, over HTTP/2 and HTTP/1.1, Courier against raw AsyncHTTPClient.")
    var http2 = false

    @Option(help: "The size of the JSON Lines export in MB, with --streams.")
    var exportMegabytes = 1000

    @Option(help: "Server-sent events per transport, with --streams.")
    var events = 200_000

    func run() async throws {
        if micro {
            try await MicroBenchmark.run(only: only)
            return
        }
        if soak {
            let server = try await ReferenceServer.start()
            try await runSoak(server)
            await server.stop()
            return
        }
        if http2 {
            try await runHTTP2()
            return
        }
        let server: BenchServer
        if let serverURL {
            server = .running(at: serverURL, webSocketURL: webSocketURL)
        } else if externalServer {
            server = try await .spawned()
        } else {
            server = try await .inProcess()
        }
        output("# \(server.description)")
        if offlineQueue {
            #if OfflineQueue
            try await OfflineQueueWorkload(baseURL: server.baseURL, entries: queueEntries).run(
                transports: [("ahc", { .asyncHTTPClient(.courierShared) }), ("urlsession", { .urlSession(.shared) })]
                    .filter { onlyTransport == nil || onlyTransport?.rawValue == $0.0 }
            )
            await server.stop()
            return
            #else
            await server.stop()
            throw ValidationError("--offline-queue needs the package trait OfflineQueue.")
            #endif
        }
        if streams {
            let workload = StreamWorkload(
                baseURL: server.baseURL,
                transports: [("ahc", { .asyncHTTPClient(.courierShared) }), ("urlsession", { .urlSession(.shared) })]
                    .filter { onlyTransport == nil || onlyTransport?.rawValue == $0.0 }
            )
            try await workload.run(exportBytes: exportMegabytes * 1_000_000, events: events)
            await server.stop()
            return
        }
        if cache {
            try await CacheWorkload(baseURL: server.baseURL, rounds: rounds, duration: .milliseconds(Int(seconds * 1000))).run()
            await server.stop()
            return
        }
        if webSockets {
            guard let origin = server.webSocketBaseURL else {
                await server.stop()
                throw ValidationError("--web-sockets with --server-url needs --web-socket-url: the origin `courier-demo serve` prints after \"WebSockets on\".")
            }
            await WebSocketWorkload(origin: origin).run(
                socketCounts: [1, 64].filter { onlyConcurrency == nil || onlyConcurrency == $0 },
                rounds: rounds,
                duration: .milliseconds(Int(seconds * 1000)),
                runsRaw: onlySide != .courier,
                runsCourier: onlySide != .raw
            ) { sockets, raw, courier in
                report(WebSocketWorkload.name, "ahc", sockets, raw: raw, courier: courier)
            }
            await server.stop()
            return
        }
        // Against a server of its own, raw AsyncHTTPClient runs with its default configuration but
        // Courier's connection pool (64 connections per host, not 8), so that a ratio at 64 in
        // flight compares the layer, not the pools. Courier's transport uses Courier's.
        var rawConfiguration = HTTPClient.Configuration()
        rawConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
            HTTPClient.courierConfiguration().connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit
        let rawHTTPClient =
            server.isExternal ? HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: rawConfiguration) : .courierShared
        let raw = RawClients(baseURL: server.baseURL, httpClient: rawHTTPClient, session: .shared)
        let ahcClient = Client(baseURL: BaseURL(server.baseURL), transport: .asyncHTTPClient(.courierShared))
        let urlSessionClient = Client(baseURL: BaseURL(server.baseURL), transport: .urlSession(.shared))
        if noCoalescing {
            for client in [ahcClient, urlSessionClient] { client.configuration.coalescesRequests = false }
        }
        let openAPIClient = Client(
            baseURL: BaseURL(server.baseURL),
            transport: OpenAPITransport(AsyncHTTPClientTransport(configuration: .init(client: .courierShared)), contentCodings: [.deflate, .gzip])
        )

        let transports: [TransportName] = (quick ? [TransportName.ahc] : TransportName.allCases).filter { onlyTransport == nil || onlyTransport == $0 }
        let workloads: [Workload] = (quick ? [.smallJSON, .list] : Workload.allCases).filter(selected)
        let concurrencies: [Int] = (quick ? [64] : [1, 16, 64]).filter { onlyConcurrency == nil || onlyConcurrency == $0 }
        let seconds = quick ? min(self.seconds, 1.5) : self.seconds
        let rounds = quick ? min(self.rounds, 2) : self.rounds
        let duration = Duration.milliseconds(Int(seconds * 1000))

        // Large transfers first, while the process is still small: their peak memory is the figure.
        let files = try FileWorkload.Files()
        defer { files.remove() }
        var fileWorkloads =
            quick
            ? [FileWorkload(direction: .download, bytes: 256 * FileWorkload.mebibyte)]
            : [
                FileWorkload(direction: .download, bytes: 1024 * FileWorkload.mebibyte),
                FileWorkload(direction: .upload, bytes: 256 * FileWorkload.mebibyte),
            ]
        fileWorkloads = fileWorkloads.filter { selected($0.name) }
        for transport in transports {
            let client = transport == .ahc ? ahcClient : urlSessionClient
            for workload in fileWorkloads where transport != .ahcOpenAPI {
                try await runTransfers(workload, transport: transport, rounds: rounds, files: files) {
                    if transport == .urlsession {
                        try await workload.urlSession(raw, files: files)
                    } else {
                        try await workload.asyncHTTPClient(raw, files: files)
                    }
                } courier: {
                    try await workload.courier(client, files: files)
                }
            }
        }

        if !quick, selected(ResumeWorkload.name) {
            for (index, transport) in transports.enumerated() where transport != .ahcOpenAPI {
                let client = transport == .ahc ? ahcClient : urlSessionClient
                let (plain, resumed) = try await ResumeWorkload().run(client, files: files, rounds: rounds, first: index * 1000)
                let mebibytes = Double(ResumeWorkload.size / 2) / Double(FileWorkload.mebibyte)
                var line = resultLine(ResumeWorkload.name, transport.rawValue, 1, raw: plain, courier: resumed, peakRSS: ResidentMemory.peakMebibytes())
                line += " plain_mib_s=\(format(plain.requestsPerSecond * mebibytes, 0)) resumed_mib_s=\(format(resumed.requestsPerSecond * mebibytes, 0))"
                output(line)
            }
        }

        if !quick, selected(FormUploadWorkload.name) {
            for transport in transports where transport != .ahcOpenAPI {
                let client = transport == .ahc ? ahcClient : urlSessionClient
                let (plain, form, parsed) = try await FormUploadWorkload().run(client, files: files, rounds: rounds)
                let mebibytes = Double(FormUploadWorkload.size) / Double(FileWorkload.mebibyte)
                var line = resultLine(FormUploadWorkload.name, transport.rawValue, 1, raw: plain, courier: form, peakRSS: ResidentMemory.peakMebibytes())
                line += " file_mib_s=\(format(plain.requestsPerSecond * mebibytes, 0)) form_mib_s=\(format(form.requestsPerSecond * mebibytes, 0))"
                line += " parsed_form_mib_s=\(format(parsed.requestsPerSecond * mebibytes, 0))"
                output(line)
            }
        }

        for transport in transports {
            for workload in workloads {
                for concurrency in concurrencies {
                    let rawOperation: @Sendable () async throws -> Void
                    let courierOperation: @Sendable () async throws -> Void
                    switch transport {
                    case .ahc:
                        rawOperation = { try await raw.asyncHTTPClient(workload) }
                        courierOperation = { try await workload.courierCall(ahcClient) }
                    case .urlsession:
                        rawOperation = { try await raw.urlSession(workload) }
                        courierOperation = { try await workload.courierCall(urlSessionClient) }
                    case .ahcOpenAPI:
                        rawOperation = { try await raw.asyncHTTPClient(workload) }
                        courierOperation = { try await workload.courierCall(openAPIClient) }
                    }
                    let (rawTotal, courierTotal) = await alternate(
                        concurrency: concurrency, rounds: rounds, duration: duration, raw: rawOperation, courier: courierOperation)
                    report(workload.rawValue, transport.rawValue, concurrency, raw: rawTotal, courier: courierTotal)
                }
            }
        }
        if server.isExternal { try await rawHTTPClient.shutdown() }
        await server.stop()
    }

    /// 20,000 requests (`--soak-requests`), 256 in flight, per transport: failures, in-flight count after, and resident
    /// memory after the first 1,000 and after the last request.
    func runSoak(_ server: ReferenceServer) async throws {
        let transports: [(String, any Transport)] = [("ahc", .asyncHTTPClient()), ("urlsession", .urlSession())]
        for (name, transport) in transports where selected(name) {
            let soak = try await Soak(
                environment: .custom(BaseURL(server.baseURL)),
                analyticsEnvironment: .custom(BaseURL(server.analyticsBaseURL)),
                apiKey: server.movieAPIKey,
                credentials: ReferenceServer.demoCredentials,
                transport: transport
            )
            let report = await soak.run(total: soakRequests, concurrency: 256)
            output("soak \(name): \(report)")
        }
    }

    /// Warms both sides up, then runs `raw` and `courier` for `rounds` rounds of `duration` each,
    /// alternating which goes first so that drift of the machine cancels out; `--side` runs one of
    /// them alone, for a profile of that side.
    /// - Returns: What each side did, over every round.
    func alternate(
        concurrency: Int,
        rounds: Int,
        duration: Duration,
        raw: @escaping @Sendable () async throws -> Void,
        courier: @escaping @Sendable () async throws -> Void
    ) async -> (raw: LoadRunner.Sample, courier: LoadRunner.Sample) {
        let runsRaw = onlySide != .courier
        let runsCourier = onlySide != .raw
        if runsRaw { _ = await LoadRunner.run(concurrency: concurrency, duration: .milliseconds(300), raw) }
        if runsCourier { _ = await LoadRunner.run(concurrency: concurrency, duration: .milliseconds(300), courier) }
        var rawTotal = LoadRunner.Sample()
        var courierTotal = LoadRunner.Sample()
        for round in 0..<rounds {
            if round % 2 == 0 {
                if runsRaw { rawTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, raw)) }
                if runsCourier { courierTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, courier)) }
            } else {
                if runsCourier { courierTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, courier)) }
                if runsRaw { rawTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, raw)) }
            }
        }
        return (rawTotal, courierTotal)
    }

    func selected(_ name: String) -> Bool {
        only.map { name.hasPrefix($0) } ?? true
    }

    func selected(_ workload: Workload) -> Bool {
        selected(workload.rawValue)
    }

    /// One transfer at a time, raw and Courier alternating; the peak resident memory of each side
    /// is measured from a reset of the process's high-water mark.
    func runTransfers(
        _ workload: FileWorkload,
        transport: TransportName,
        rounds: Int,
        files: FileWorkload.Files,
        raw: () async throws -> Void,
        courier: () async throws -> Void
    ) async throws {
        var rawTotal = LoadRunner.Sample()
        var courierTotal = LoadRunner.Sample()
        var rawPeak = 0.0
        var courierPeak = 0.0
        let baseline = ResidentMemory.currentMebibytes()
        func timed(_ operation: () async throws -> Void, into sample: inout LoadRunner.Sample, peak: inout Double) async throws {
            ResidentMemory.resetPeak()
            let start = ContinuousClock.now
            try await operation()
            let elapsed = ContinuousClock.now - start
            peak = max(peak, ResidentMemory.peakMebibytes())
            // Freeing a gigabyte of page cache is the file system's cost, not the client's: do it
            // outside the timed part, for both sides alike.
            files.removeDownloads()
            sample.add(LoadRunner.Sample(requests: 1, elapsed: elapsed, latenciesMicroseconds: [elapsed.microseconds]))
        }
        for round in 0..<rounds {
            if round % 2 == 0 {
                try await timed(raw, into: &rawTotal, peak: &rawPeak)
                try await timed(courier, into: &courierTotal, peak: &courierPeak)
            } else {
                try await timed(courier, into: &courierTotal, peak: &courierPeak)
                try await timed(raw, into: &rawTotal, peak: &rawPeak)
            }
        }
        let mebibytes = Double(workload.bytes) / Double(FileWorkload.mebibyte)
        var line = resultLine(workload.name, transport.rawValue, 1, raw: rawTotal, courier: courierTotal, peakRSS: courierPeak)
        line += " raw_mib_s=\(format(rawTotal.requestsPerSecond * mebibytes, 0)) courier_mib_s=\(format(courierTotal.requestsPerSecond * mebibytes, 0))"
        line += " raw_peak_rss_mib=\(format(rawPeak, 1)) rss_before_mib=\(format(baseline, 1))"
        output(line)
    }

    func report(_ workload: String, _ transport: String, _ concurrency: Int, raw: LoadRunner.Sample, courier: LoadRunner.Sample) {
        var line = resultLine(workload, transport, concurrency, raw: raw, courier: courier, peakRSS: ResidentMemory.peakMebibytes())
        if raw.errors + courier.errors > 0 { line += " errors_raw=\(raw.errors) errors_courier=\(courier.errors)" }
        output(line)
    }

    /// The `RESULT` line's common fields.
    func resultLine(
        _ workload: String,
        _ transport: String,
        _ concurrency: Int,
        raw: LoadRunner.Sample,
        courier: LoadRunner.Sample,
        peakRSS: Double
    ) -> String {
        let ratio = raw.requestsPerSecond > 0 ? courier.requestsPerSecond / raw.requestsPerSecond : 0
        var line = "RESULT workload=\(workload) transport=\(transport) conc=\(concurrency)"
        line += " raw_rps=\(format(raw.requestsPerSecond, 0)) courier_rps=\(format(courier.requestsPerSecond, 0)) ratio=\(format(ratio, 3))"
        line += " raw_p50_us=\(format(raw.percentile(0.5), 0)) courier_p50_us=\(format(courier.percentile(0.5), 0))"
        line += " raw_p99_us=\(format(raw.percentile(0.99), 0)) courier_p99_us=\(format(courier.percentile(0.99), 0))"
        line += " peak_rss_mib=\(format(peakRSS, 1))"
        line += " raw_cpu_us=\(format(raw.cpuMicrosecondsPerRequest, 0)) courier_cpu_us=\(format(courier.cpuMicrosecondsPerRequest, 0))"
        line += " raw_csw=\(format(raw.contextSwitchesPerRequest, 1)) courier_csw=\(format(courier.contextSwitchesPerRequest, 1))"
        return line
    }
}
#endif
