import Courier
import Foundation

/// Starts a resumable download of `request` to `destination`, cancels it once more than
/// `threshold` bytes have arrived, and returns how it ended: the start of a resumption test.
/// - Parameters:
///   - client: The client.
///   - request: The download.
///   - destination: Where the file goes.
///   - threshold: How many bytes must have arrived before the cancellation; any by default.
/// - Returns: The download's outcome, usually ``CourierError/Kind/cancelled``.
public func downloadCancelled(
    _ client: Client,
    _ request: Request<Data>,
    to destination: URL,
    after threshold: Int64 = 0
) async -> Result<DownloadedFile, CourierError> {
    let started = AsyncStream.makeStream(of: Void.self)
    let task = Task {
        try await client.resumableDownload(
            request, to: destination,
            progress: { progress in
                if progress.completedBytes > threshold { started.continuation.yield() }
            })
    }
    for await _ in started.stream { break }
    task.cancel()
    return await capture { try await task.value }
}
