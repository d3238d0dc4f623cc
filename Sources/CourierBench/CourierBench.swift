import ArgumentParser
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import OpenAPIURLSession
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
    }

    @Flag(help: "A subset that runs in under a minute: AHC, small JSON and 10 KB list, 64 in flight.")
    var quick = false

    @Flag(help: "Only the in-process cost of the layer itself, in ns per request.")
    var micro = false

    @Option(help: "Seconds per side per round.")
    var seconds = 2.0

    @Option(help: "Rounds; raw and Courier alternate within each round.")
    var rounds = 3

    func run() async throws {
        if micro {
            try await MicroBenchmark.run()
            return
        }
        let server = try await ReferenceServer.start()
        let raw = RawClients(baseURL: server.baseURL, httpClient: .courierShared, session: .shared)
        let ahcClient = Client(baseURL: BaseURL(server.baseURL), transport: .asyncHTTPClient(.courierShared))
        let urlSessionClient = Client(baseURL: BaseURL(server.baseURL), transport: .urlSession(.shared))

        let transports: [TransportName] = quick ? [.ahc] : [.ahc, .urlsession]
        let workloads: [Workload] = quick ? [.smallJSON, .list] : Workload.allCases
        let concurrencies = quick ? [64] : [1, 16, 64]
        let seconds = quick ? min(self.seconds, 1.5) : self.seconds
        let rounds = quick ? min(self.rounds, 2) : self.rounds
        let duration = Duration.milliseconds(Int(seconds * 1000))

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
                    }
                    // Warm up connections and caches on both sides.
                    _ = await LoadRunner.run(concurrency: concurrency, duration: .milliseconds(300), rawOperation)
                    _ = await LoadRunner.run(concurrency: concurrency, duration: .milliseconds(300), courierOperation)
                    var rawTotal = LoadRunner.Sample()
                    var courierTotal = LoadRunner.Sample()
                    for round in 0..<rounds {
                        // Alternate which side goes first so drift of the machine cancels out.
                        if round % 2 == 0 {
                            rawTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, rawOperation))
                            courierTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, courierOperation))
                        } else {
                            courierTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, courierOperation))
                            rawTotal.add(await LoadRunner.run(concurrency: concurrency, duration: duration, rawOperation))
                        }
                    }
                    report(workload.rawValue, transport.rawValue, concurrency, raw: rawTotal, courier: courierTotal)
                }
            }
        }
        for workload in ["download_1gib_to_file", "upload_256mib_from_file"] {
            output("SKIP workload=\(workload) reason=streaming_to_and_from_files_not_built_yet")
        }
        await server.stop()
    }

    func report(_ workload: String, _ transport: String, _ concurrency: Int, raw: LoadRunner.Sample, courier: LoadRunner.Sample) {
        let ratio = raw.requestsPerSecond > 0 ? courier.requestsPerSecond / raw.requestsPerSecond : 0
        var line = "RESULT workload=\(workload) transport=\(transport) conc=\(concurrency)"
        line += " raw_rps=\(format(raw.requestsPerSecond, 0)) courier_rps=\(format(courier.requestsPerSecond, 0)) ratio=\(format(ratio, 3))"
        line += " raw_p50_us=\(format(raw.percentile(0.5), 0)) courier_p50_us=\(format(courier.percentile(0.5), 0))"
        line += " raw_p99_us=\(format(raw.percentile(0.99), 0)) courier_p99_us=\(format(courier.percentile(0.99), 0))"
        line += " peak_rss_mib=\(format(LoadRunner.peakRSSMebibytes(), 1))"
        if raw.errors + courier.errors > 0 { line += " errors_raw=\(raw.errors) errors_courier=\(courier.errors)" }
        output(line)
    }
}

func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// Writes a line at once: a reader on a pipe sees every result even if the run is cut short.
func output(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
