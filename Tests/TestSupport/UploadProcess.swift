import Foundation

/// Runs `courier-demo upload` in a process of its own, which sends a file as a multipart form and
/// reports its peak memory before and after: a test measures the client's
/// memory without its own (or a server's) in the figure.
public enum UploadProcess {
    /// What the upload reported.
    public struct Report: Sendable {
        /// Peak resident memory before the upload, after one warm-up call, in MiB.
        public var peakBefore: Double
        /// Peak resident memory after the upload, in MiB.
        public var peakAfter: Double
        /// The form's length in bytes.
        public var length: Int64
        /// The server's answer.
        public var receipt: Data
    }

    /// Uploads `file` and waits for the process to end (at most ten minutes).
    /// - Parameters:
    ///   - file: The file part.
    ///   - path: `forms` or `files` (see `courier-demo upload --help`).
    ///   - baseURL: The server's origin.
    ///   - transport: `urlsession` or `asynchttpclient`.
    ///   - body: `form` (the file between two text fields) or `file` (the file alone).
    /// - Returns: The report.
    /// - Throws: When the process fails or reports nothing.
    public static func run(file: URL, path: String, baseURL: String, transport: String, body: String = "form") async throws -> Report {
        let process = Process()
        process.executableURL = try BuiltExecutable.url(named: "courier-demo")
        process.arguments = ["upload", "--base-url", baseURL, "--file", file.path, "--path", path, "--transport", transport, "--body", body]
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        let text = LockedBox(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            text.mutate { $0.append(data) }
        }
        try process.run()
        for _ in 0..<60_000 where process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        text.mutate { $0.append(output.fileHandleForReading.readDataToEndOfFile()) }
        let lines = String(decoding: text.value, as: UTF8.self).split(separator: "\n").map(String.init)
        func value(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + " ") }.map { String($0.dropFirst(name.count + 1)) }
        }
        guard process.terminationStatus == 0, let before = value("peak-mib-before").flatMap(Double.init),
            let after = value("peak-mib-after").flatMap(Double.init), let receipt = value("receipt"),
            let length = value("length").flatMap(Int64.init)
        else {
            let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "courier-demo upload failed: \(lines) \(failure)"])
        }
        return Report(peakBefore: before, peakAfter: after, length: length, receipt: Data(receipt.utf8))
    }
}
