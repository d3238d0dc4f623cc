// swift-tools-version:6.2
import Foundation
import PackageDescription

/// Every target: Swift 6 language mode (strict concurrency), `any` spelled out, imports explicit.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The AsyncHTTPClient transport's dependencies exist only while the `AsyncHTTPClient` trait is on.
let ahc = TargetDependencyCondition.when(traits: ["AsyncHTTPClient"])
/// The offline queue's dependency (GRDB) exists only while the `OfflineQueue` trait is on.
let offlineQueue = TargetDependencyCondition.when(traits: ["OfflineQueue"])

let package = Package(
    name: "Courier",
    // `Duration` and `ContinuousClock` set the floor; newer APIs are behind `if #available`
    // (`Task.immediate`). Hummingbird 2.28 declares macOS 11, so the reference server needs no more.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    // Only the libraries apps depend on. A dependent clones the dependencies of every product, so
    // the reference server, the example APIs, the demo and the benchmarks are targets only; here
    // they run as before: `swift run courier-demo`, `swift test`.
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        // The JSON decoder alone, for code that wants it without the networking layer.
        .library(name: "CourierJSON", targets: ["CourierJSON"]),
        // Empty unless the dependent enables the `AsyncHTTPClient` trait (see the traits below).
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        // Stubs, recorded requests, HAR record and replay, a test clock: for an app's test targets.
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        // Empty unless the dependent enables the `OfflineQueue` trait (see the traits below).
        .library(name: "CourierOfflineQueue", targets: ["CourierOfflineQueue"]),
    ],
    // Both traits are on by default, so that this package's own commands build and test both
    // transports and the offline queue as written. An app that wants only the queue depends with
    // `traits: ["OfflineQueue"]` (no SwiftNIO clone), a server with `traits: ["AsyncHTTPClient"]`
    // (no GRDB clone), and an app that wants neither with `traits: []`.
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description: "Adds the CourierAsyncHTTPClient product: Courier's transport over AsyncHTTPClient (SwiftNIO)."
        ),
        .trait(
            name: "OfflineQueue",
            description: "Adds the CourierOfflineQueue product: a durable queue of mutations on SQLite (GRDB)."
        ),
        .default(enabledTraits: ["AsyncHTTPClient", "OfflineQueue"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // The reference server's WebSocket routes only (a target, not a product: apps never clone it).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // courier-bench's raw WebSocket side only: its client, used directly (a target, not a product).
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "CourierJSON",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Courier",
            dependencies: [
                "CourierJSON",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                // Conditions on the product dependencies themselves: SwiftPM decides what a
                // dependent clones from these, not from conditions on edges between our targets.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: ahc),
                .product(name: "NIOCore", package: "swift-nio", condition: ahc),
                .product(name: "NIOPosix", package: "swift-nio", condition: ahc),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: ahc),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: ahc),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras", condition: ahc),
                // SOCKS5 for sockets, and the SOCKS errors AsyncHTTPClient passes on.
                .product(name: "NIOSOCKS", package: "swift-nio-extras", condition: ahc),
                // The CONNECT tunnel a socket opens through an HTTP proxy.
                .product(name: "NIOExtras", package: "swift-nio-extras", condition: ahc),
                // The TLS handshake's completion, after which a socket's pins are checked.
                .product(name: "NIOTLS", package: "swift-nio", condition: ahc),
                // Courier's own WebSocket handshake and frame codec.
                .product(name: "NIOWebSocket", package: "swift-nio", condition: ahc),
                // The HTTP/2 stream errors that say a request was never processed (GOAWAY).
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: ahc),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CourierTesting",
            dependencies: ["Courier"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "CourierOfflineQueue",
            dependencies: [
                "Courier",
                // On Linux GRDB links the system SQLite: `apt-get install libsqlite3-dev`.
                .product(name: "GRDB", package: "GRDB.swift", condition: offlineQueue),
            ],
            swiftSettings: swiftSettings
        ),
        // A queue in a process of its own, for the tests that kill it with SIGKILL mid-drain.
        // Not a product: `swift build --build-tests` puts it beside the test bundle.
        .executableTarget(
            name: "courier-queue-worker",
            dependencies: ["Courier", "CourierAsyncHTTPClient", "CourierOfflineQueue"],
            path: "Sources/CourierQueueWorker",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ExampleAPIs",
            dependencies: ["Courier"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "ReferenceServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // Named as the command, so `swift run courier-demo` finds it without an executable product.
        .executableTarget(
            name: "courier-demo",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOfflineQueue",
                "ExampleAPIs",
                "ReferenceServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/CourierDemo",
            swiftSettings: swiftSettings
        ),
        // Named as the command, so `swift run courier-bench` finds it without an executable product.
        .executableTarget(
            name: "courier-bench",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOfflineQueue",
                "ExampleAPIs",
                "ReferenceServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // Only to measure Courier's own AsyncHTTPClient transport against this one.
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                // Only to measure Courier's WebSockets against swift-websocket's client (its logger is required).
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/CourierBench",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier",
                "CourierJSON",
                "CourierTesting",
                "TestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // What Courier's own test targets share: one lock box, one log capture, one `capture`,
        // one `eventually`, one movable wall clock, one list of transports and one reference
        // server per test.
        .target(
            name: "TestSupport",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "ReferenceServer",
                // Resident memory, read as the demo and the benchmarks read it.
                "ExampleAPIs",
                .product(name: "Logging", package: "swift-log"),
                // The MD5 of nginx's secure_link in the interop launchers.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierTestingTests",
            dependencies: [
                "Courier",
                "CourierTesting",
                "ExampleAPIs",
                "ReferenceServer",
                "TestSupport",
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        // What an app team writes: the example services tested over CourierTesting only.
        .testTarget(
            name: "ExampleAPIsTests",
            dependencies: ["Courier", "CourierTesting", "ExampleAPIs"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierJSONTests",
            dependencies: [
                "CourierJSON",
                "TestSupport",
                // `JSONValue`, the type an untyped payload is read into, lives in Courier.
                "Courier",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CourierOfflineQueueTests",
            dependencies: [
                "Courier",
                "CourierOfflineQueue",
                "CourierAsyncHTTPClient",
                "CourierTesting",
                "ExampleAPIs",
                "ReferenceServer",
                "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ReadmeTests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOfflineQueue",
                "CourierTesting",
                "ReferenceServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "Courier",
                "TestSupport",
                "CourierAsyncHTTPClient",
                "ExampleAPIs",
                "ReferenceServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // The raw WebSocket peer's handshake (SHA-1 of the key).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Courier against servers it was not written beside: nginx, squid, dante, Python's
        // websockets, httpbin and sse-starlette, started by the launchers in TestSupport
        // (`scripts/interop-setup.sh` installs them; without them these tests skip, naming what is missing).
        .testTarget(
            name: "InteropTests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "ReferenceServer",
                "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The servers' configuration templates and scripts, read from the sources by the launchers.
            exclude: ["Servers"],
            swiftSettings: swiftSettings
        ),
    ]
)

// The DocC plugin only when documentation is built, so packages that depend on Courier never clone it:
// `SWIFT_PREVIEW_DOCS=1 swift package generate-documentation --target Courier --warnings-as-errors`
// (the Swift Package Index sets `SPI_GENERATE_DOCS`).
let environment = ProcessInfo.processInfo.environment
if environment["SWIFT_PREVIEW_DOCS"] != nil || environment["SPI_GENERATE_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
