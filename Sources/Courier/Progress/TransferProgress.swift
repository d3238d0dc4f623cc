/// How far an upload or a download has come.
///
/// ```swift
/// let file = try await client.download(Request<Data>(.get, "files/big"), to: destination) { progress in
///     print("\(progress.completedBytes) of \(progress.totalBytes ?? 0) bytes")
/// }
/// ```
public struct TransferProgress: Sendable, Equatable {
    /// Which way the bytes go.
    public enum Direction: Sendable, Equatable {
        /// The request body, from the app to the server.
        case upload
        /// The response body, from the server to the app.
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// All bytes to transfer, when known (from the body's length or `Content-Length`).
    public var totalBytes: Int64?
    /// Recent throughput in bytes per second, over about the last two seconds; set by
    /// ``TransferProgressUpdates``, `nil` in the values a transfer's handler receives.
    public var bytesPerSecond: Double?

    /// Creates a progress value.
    /// - Parameters:
    ///   - direction: Upload or download.
    ///   - completedBytes: Bytes done.
    ///   - totalBytes: All bytes, when known.
    ///   - bytesPerSecond: Recent throughput, when estimated.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?, bytesPerSecond: Double? = nil) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.bytesPerSecond = bytesPerSecond
    }

    /// Done as a fraction from 0 to 1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return 1 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
