import Logging

/// A log handler that keeps each line as `"<level>: <message>"` in a box the test reads.
///
/// ```swift
/// let lines = LockedBox<[String]>([])
/// let logger = Logger(label: "test") { _ in LogCapture(lines: lines) }
/// ```
public struct LogCapture: LogHandler {
    /// Where the lines go.
    public let lines: LockedBox<[String]>
    /// The metadata, kept as any handler keeps it.
    public var metadata: Logger.Metadata = [:]
    /// The lowest level kept.
    public var logLevel: Logger.Level

    /// Creates a handler.
    /// - Parameters:
    ///   - lines: Where the lines go.
    ///   - logLevel: The lowest level kept; every level by default.
    public init(lines: LockedBox<[String]>, logLevel: Logger.Level = .trace) {
        self.lines = lines
        self.logLevel = logLevel
    }

    /// Metadata by key.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Keeps the line.
    public func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}
