import Foundation

/// The system's `openssl` command, for tests that need files only it writes (PKCS#12 bundles,
/// encrypted keys).
///
/// ```swift
/// @Test(.enabled(if: OpenSSLCommand.isAvailable))
/// func bundle() throws {
///     try OpenSSLCommand.run(["pkcs12", "-export", "-in", certificate.path, "-inkey", key.path, "-out", bundle.path, "-passout", "pass:pw"])
/// }
/// ```
public enum OpenSSLCommand {
    /// Where the command is.
    public static let path = "/usr/bin/openssl"

    /// Whether the command is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// Runs `openssl` with `arguments` and waits for it, its output discarded.
    /// - Parameter arguments: The arguments, the subcommand first.
    /// - Returns: Whether it exited with status 0.
    /// - Throws: When the command cannot be started.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
