#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOSSL

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CourierBench {
    /// `--http2`: small JSON at 64 in flight against `courier-demo serve --tls` in another process,
    /// raw AsyncHTTPClient against Courier over it, first over HTTP/2 (one connection, 64 streams),
    /// then over HTTP/1.1 (up to 64 connections). Both sides trust the server's root and use
    /// Courier's pool settings.
    func runHTTP2() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-root-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await BenchServer.spawned(arguments: ["--tls", "--root-certificate", root.path])
        output("# \(server.description)")
        do {
            let rootPEM = try String(contentsOf: root, encoding: .utf8)
            for (name, version) in [("ahc_h2", HTTPClient.Configuration.HTTPVersion.automatic), ("ahc_h1", .http1Only)] where selected(name) {
                try await measure(name, version: version, rootPEM: rootPEM, baseURL: server.baseURL)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    private func measure(_ name: String, version: HTTPClient.Configuration.HTTPVersion, rootPEM: String, baseURL: String) async throws {
        var configuration = HTTPClient.courierConfiguration()
        configuration.httpVersion = version
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(rootPEM.utf8)))]
        var rawConfiguration = configuration
        rawConfiguration.tlsConfiguration = tls
        let rawHTTPClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: rawConfiguration)
        let transport = try HTTPClientTransport(trust: ServerTrust(additionalRootCertificates: [rootPEM]), configuration: configuration)
        let raw = RawClients(baseURL: baseURL, httpClient: rawHTTPClient, session: .shared)
        let client = Client(baseURL: BaseURL(baseURL), transport: transport)
        if noCoalescing { client.configuration.coalescesRequests = false }
        let workload = Workload.smallJSON
        let rawOperation: @Sendable () async throws -> Void = { try await raw.asyncHTTPClient(workload) }
        let courierOperation: @Sendable () async throws -> Void = { try await workload.courierCall(client) }
        let duration = Duration.milliseconds(Int(seconds * 1000))
        let (rawTotal, courierTotal) = await alternate(concurrency: 64, rounds: rounds, duration: duration, raw: rawOperation, courier: courierOperation)
        report(workload.rawValue, name, 64, raw: rawTotal, courier: courierTotal)
        try await transport.shutdown()
        try await rawHTTPClient.shutdown()
    }
}
#endif
