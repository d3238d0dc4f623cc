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

/// Each target and the product it reaches; the decoder's model target needs only CourierJSON.
let fuzzTargets: [(name: String, library: String)] = [
    ("fuzz-json-value", "Courier"),
    ("fuzz-json-models", "CourierJSON"),
    ("fuzz-set-cookie", "Courier"),
    ("fuzz-set-cookie-fields", "Courier"),
    ("fuzz-retry-after", "Courier"),
    ("fuzz-rate-limit", "Courier"),
    ("fuzz-content-length", "Courier"),
    ("fuzz-content-range", "Courier"),
    ("fuzz-redirect", "Courier"),
    ("fuzz-event-stream", "Courier"),
    ("fuzz-link", "Courier"),
    ("fuzz-cache-control", "Courier"),
    ("fuzz-cache-freshness", "Courier"),
    ("fuzz-cache-entry", "Courier"),
]

let package = Package(
    name: "CourierFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        // No traits: the fuzz targets need neither SwiftNIO nor AsyncHTTPClient.
        .package(name: "Courier", path: "..", traits: [])
    ],
    targets: fuzzTargets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: [.product(name: target.library, package: "Courier"), "FuzzInput"],
            swiftSettings: swiftSettings
        )
    } + [
        .target(name: "FuzzInput", swiftSettings: swiftSettings)
    ]
)
