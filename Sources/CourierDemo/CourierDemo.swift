import ArgumentParser
import Courier
#if AsyncHTTPClient
import CourierAsyncHTTPClient
#endif
import ExampleAPIs
import Foundation
import Logging
import ReferenceServer

/// `courier-demo`: the example app flow against the reference backends.
@main
struct CourierDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courier-demo",
        abstract: "Courier's example app flow against the embedded reference server.",
        subcommands: [Demo.self, Serve.self, Run.self, DownloadCommand.self, UploadCommand.self],
        defaultSubcommand: Demo.self
    )
}

/// Which transport the flow's clients send through.
enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
    case urlsession
    case asynchttpclient

    func make() throws -> any Transport {
        switch self {
        case .urlsession:
            return .urlSession()
        case .asynchttpclient:
            #if AsyncHTTPClient
            return .asyncHTTPClient()
            #else
            throw ValidationError(
                "This build has no AsyncHTTPClient transport; build with the package trait: "
                    + "swift run --traits AsyncHTTPClient courier-demo --transport asynchttpclient"
            )
            #endif
        }
    }

    var displayName: String {
        switch self {
        case .urlsession: "URLSession"
        case .asynchttpclient: "AsyncHTTPClient"
        }
    }
}

/// Starts the reference server in-process on 127.0.0.1 and runs the flow against it.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Start the reference server on 127.0.0.1 and run the example app flow against it (the default)."
    )

    @Option(help: "The transport: urlsession or asynchttpclient.")
    var transport = TransportChoice.urlsession

    func run() async throws {
        let clientTransport = try transport.make()
        let server = try await ReferenceServer.start()
        let flow = AppFlow(
            environment: .custom(BaseURL(server.baseURL)),
            rootURL: BaseURL(server.baseURL),
            analyticsEnvironment: .custom(BaseURL(server.analyticsBaseURL)),
            movieAPIKey: server.movieAPIKey,
            credentials: ReferenceServer.demoCredentials,
            offlinePort: try await ReferenceServer.unusedPort(),
            transport: clientTransport,
            webSocketURL: BaseURL(server.webSocketBaseURL)
        )
        flow.transcript.write(
            "Courier demo: reference server at \(server.baseURL), analytics at \(server.analyticsBaseURL), transport \(transport.displayName)"
        )
        let failures = await flow.run()
        await server.stop()
        try finish(flow.transcript, failures: failures)
    }
}

/// Serves the reference backends until interrupted.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the reference backends on 127.0.0.1 until interrupted.")

    @Option(help: "The main port (0 picks a free one).")
    var port = 8080

    @Option(help: "The analytics backend's port (0 picks a free one).")
    var analyticsPort = 0

    @Flag(help: "Serve HTTPS with a certificate made for this run, offering HTTP/2 and HTTP/1.1 by ALPN.")
    var tls = false

    @Option(help: "With --tls: write the root certificate to trust (PEM) to this file instead of printing it.")
    var rootCertificate: String?

    func run() async throws {
        var options = ReferenceServer.Options()
        options.port = port
        options.analyticsPort = analyticsPort
        options.logLevel = .notice
        let transcript = Transcript()
        if tls {
            let certificates = try LoopbackCertificates(commonName: "Courier Reference Server Root")
            options.tls = certificates
            options.offersHTTP2 = true
            if let rootCertificate {
                try certificates.rootCertificatePEM.write(toFile: rootCertificate, atomically: true, encoding: .utf8)
            } else {
                transcript.write(certificates.rootCertificatePEM)
            }
        }
        let server = try await ReferenceServer.start(options)
        transcript.write(
            "Reference server listening on \(server.baseURL) (analytics on \(server.analyticsBaseURL), WebSockets on \(server.webSocketBaseURL))."
        )
        transcript.write("Movie api_key: \(server.movieAPIKey). Demo login: \(ReferenceServer.demoCredentials.email). Ctrl-C stops.")
        await server.waitUntilStopped()
    }
}

/// Runs the flow against a server that is already running.
struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the example app flow against a running server.")

    @Option(help: "The server's origin, e.g. http://127.0.0.1:8080.")
    var baseURL: String

    @Option(help: "The analytics backend's origin; the main server also serves analytics when omitted.")
    var analyticsURL: String?

    @Option(help: "The movie backend's api_key.")
    var apiKey = "courier-demo-key"

    @Option(help: "The login e-mail.")
    var email = ReferenceServer.demoCredentials.email

    @Option(help: "The login password.")
    var password = ReferenceServer.demoCredentials.password

    @Option(help: "The transport: urlsession or asynchttpclient.")
    var transport = TransportChoice.urlsession

    @Option(help: "The WebSocket listener's origin (serve prints it); the WebSocket step is skipped without it.")
    var webSocketURL: String?

    func run() async throws {
        let flow = AppFlow(
            environment: .custom(BaseURL(baseURL)),
            rootURL: BaseURL(baseURL),
            analyticsEnvironment: .custom(BaseURL(analyticsURL ?? baseURL)),
            movieAPIKey: apiKey,
            credentials: (email, password),
            offlinePort: try await ReferenceServer.unusedPort(),
            transport: try transport.make(),
            webSocketURL: webSocketURL.map { BaseURL($0) }
        )
        flow.transcript.write("Courier demo against \(baseURL), transport \(transport.displayName)")
        try finish(flow.transcript, failures: await flow.run())
    }
}

/// Prints the verdict; exits non-zero when a step did not behave as expected.
func finish(_ transcript: Transcript, failures: [String]) throws {
    if failures.isEmpty {
        transcript.write("\nEvery step behaved as expected.")
    } else {
        transcript.write("\n\(failures.count) step(s) did not behave as expected:")
        for failure in failures { transcript.write("  - \(failure)") }
        throw ExitCode.failure
    }
}
