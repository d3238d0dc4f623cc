import Foundation
import Logging

/// Prints the demo's transcript line by line (flushed at once, so a reader on a pipe sees each
/// step as it happens) and remembers which steps did not behave as expected.
final class Transcript: @unchecked Sendable {
    // @unchecked: `failures` is used from one task at a time (the steps run in sequence); the log
    // lines, written from any task, are behind `logLock`.
    private(set) var failures: [String] = []
    /// Lines logged through ``logger`` since they were last cleared.
    var logLines: [String] {
        get { logLock.withLock { collected } }
        set { logLock.withLock { collected = newValue } }
    }
    private let logLock = NSLock()
    private var collected: [String] = []

    /// Adds a log line; safe from any task.
    func appendLog(_ line: String) {
        logLock.withLock { collected.append(line) }
    }

    /// A logger (debug level) whose lines are collected in ``logLines``.
    var logger: Logger {
        var logger = Logger(label: "courier.demo") { _ in TranscriptLogHandler(transcript: self) }
        logger.logLevel = .debug
        return logger
    }

    func heading(_ text: String) {
        write("\n\(text)")
    }

    func line(_ text: String) {
        write("  \(text)")
    }

    /// Records a step's outcome: `✓` when it matched the expectation, `✗` (and a failure) otherwise.
    func check(_ passed: Bool, _ text: String) {
        write("  \(passed ? "✓" : "✗") \(text)")
        if !passed { failures.append(text) }
    }

    /// Rewrites the current line: a live progress line, ended by the next ``write(_:)``.
    func progress(_ text: String) {
        FileHandle.standardOutput.write(Data("\r  \(text)".utf8))
    }

    func write(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Collects log lines into a ``Transcript``.
struct TranscriptLogHandler: LogHandler {
    let transcript: Transcript
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .debug

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        transcript.appendLog("\(event.level): \(event.message)")
    }
}
