import Courier
import ExampleAPIs
import Foundation
import ReferenceServer
import TestSupport
import Testing

@Suite("Soak: the example app's traffic at volume", .heavyLoad)
struct SoakTests {
    @Test(
        "2,000 mixed requests, 256 in flight: no errors, nothing left in flight, memory flat after warm-up",
        arguments: TransportKind.allCases)
    func soak(transport: TransportKind) async throws {
        try await withBackends(transport) { backends in
            let soak = try await Soak(
                environment: backends.environment,
                analyticsEnvironment: .custom(BaseURL(backends.server.analyticsBaseURL)),
                apiKey: backends.server.movieAPIKey,
                credentials: ReferenceServer.demoCredentials,
                transport: backends.transport
            )
            let report = await soak.run(total: 2_000, concurrency: 256)
            // The long form: `swift run -c release courier-bench --soak`.
            print("soak \(transport): \(report)")
            #expect(report.requests == 2_000)
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.inFlightAfter == 0)
            #expect(report.residentGrowth < 0.10, "\(report)")
        }
    }
}
