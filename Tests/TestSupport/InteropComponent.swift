import Foundation
import Testing

/// A third-party program the interop suite (`Tests/InteropTests`) starts, and where it is found.
///
/// `scripts/interop-setup.sh` installs every one (`.ci/run` calls it). A test that needs one is
/// marked ``Testing/Trait/requires(_:)``: without it the test skips, naming what is missing and how
/// to install it; under `CI=true` it runs anyway and fails, since a CI run must check them all.
public enum InteropComponent: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Debian's `nginx-light`.
    case nginx
    /// Debian's `squid`, with `basic_ncsa_auth` and `htpasswd` (apache2-utils) for its passwords.
    case squid
    /// Debian's `dante-server`.
    case dante
    /// The pinned Python servers in `.interop/venv`: websockets, httpbin under gunicorn, sse-starlette under uvicorn.
    case pythonServers

    /// The component's name, as skip messages show it.
    public var description: String { rawValue }

    /// What is missing of this component, or `nil` when all of it is installed.
    public var missing: String? {
        let absent = requiredFiles.filter { !FileManager.default.isExecutableFile(atPath: $0.path) }
        guard !absent.isEmpty else { return nil }
        return "\(self) is not installed (\(absent.map(\.path).joined(separator: ", ")) missing): run scripts/interop-setup.sh"
    }

    /// Whether a missing component fails the test instead of skipping it: when `CI` is `true`.
    public static var failsWhenMissing: Bool {
        ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true"
    }

    /// The repository's root, found from this file's path (the tests run from a build of the sources).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Where the servers' configuration templates and scripts are: `Tests/InteropTests/Servers`.
    public static var serversDirectory: URL {
        repositoryRoot.appendingPathComponent("Tests/InteropTests/Servers")
    }

    /// The virtual environment's Python, which runs the Python servers.
    public static var python: URL {
        repositoryRoot.appendingPathComponent(".interop/venv/bin/python")
    }

    /// The Python environment's `gunicorn`.
    public static var gunicorn: URL {
        repositoryRoot.appendingPathComponent(".interop/venv/bin/gunicorn")
    }

    /// The files the component needs.
    var requiredFiles: [URL] {
        switch self {
        case .nginx: [Self.program("nginx")]
        case .squid: [Self.program("squid"), Self.program("htpasswd"), URL(fileURLWithPath: "/usr/lib/squid/basic_ncsa_auth")]
        case .dante: [Self.program("danted")]
        case .pythonServers: [Self.python, Self.gunicorn]
        }
    }

    /// `name` in the first of `/usr/sbin`, `/usr/bin` and `/usr/local/bin` that has it (the first when none has).
    static func program(_ name: String) -> URL {
        let folders = ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"].map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
        return folders.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? folders[0]
    }

    /// Throws ``MissingInteropComponent`` when this component is not installed.
    /// - Throws: ``MissingInteropComponent`` naming what is missing.
    public func check() throws(MissingInteropComponent) {
        if let missing { throw MissingInteropComponent(component: self, reason: missing) }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only when `components` are installed; under `CI=true` always, so that a missing
    /// one fails the run (its launcher throws ``MissingInteropComponent``) instead of skipping.
    /// - Parameter components: What the test starts.
    /// - Returns: The condition.
    public static func requires(_ components: InteropComponent...) -> Self {
        let missing = components.compactMap(\.missing)
        return .enabled(
            if: missing.isEmpty || InteropComponent.failsWhenMissing,
            Comment(rawValue: missing.joined(separator: "; "))
        )
    }
}
