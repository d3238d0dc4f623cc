// swift-tools-version:6.2
import PackageDescription

/// Fuzz targets for every parser of server input, built with libFuzzer and AddressSanitizer by
/// `Fuzz/fuzz.sh` (see CONTRIBUTING). A package of its own, so the library's package gains no
/// target, product or dependency; it reaches the parsers the client uses with `@testable import`.
///
/// Each target is a `LLVMFuzzerTestOneInput` without a `main`: libFuzzer supplies one, so the
/// targets link only with `--sanitize fuzzer`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "CourierFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        // No traits: the fuzz targets need neither SwiftNIO nor AsyncHTTPClient.
        .package(name: "Courier", path: "..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "fuzz-json-value",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-json-models",
            dependencies: [.product(name: "CourierJSON", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-set-cookie",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-retry-after",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-rate-limit",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-content-length",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-redirect",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-event-stream",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "fuzz-link",
            dependencies: [.product(name: "Courier", package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        ),
        .target(name: "FuzzInput", swiftSettings: swiftSettings),
    ]
)
