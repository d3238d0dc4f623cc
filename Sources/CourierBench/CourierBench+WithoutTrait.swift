#if !AsyncHTTPClient
import ArgumentParser

/// `courier-bench` built without the package trait `AsyncHTTPClient`: its comparisons need that
/// transport, so it says how to build it.
@main
struct CourierBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier-bench",
        abstract: "Compare Courier with the raw transport it runs on (run with -c release)."
    )

    @Flag(help: "Only the in-process cost of the layer itself, in ns per request.")
    var micro = false

    @Option(help: "Only measurements whose name starts with this, for profiling.")
    var only: String?

    func run() async throws {
        guard micro else {
            throw ValidationError(
                "courier-bench compares transports, AsyncHTTPClient among them; build it with the package trait: "
                    + "swift run -c release --traits AsyncHTTPClient courier-bench"
            )
        }
        try await MicroBenchmark.run(only: only)
    }
}
#endif
