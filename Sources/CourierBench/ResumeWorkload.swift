// Compiled with the package trait `AsyncHTTPClient`, as the rest of courier-bench.
#if AsyncHTTPClient
import Courier
import Foundation

/// A 1 GiB download resumed from its middle, against a plain download of the same bytes (a
/// `Range` request for the second half through ``Client/download(_:to:progress:)``), on one
/// transport: what resuming costs beyond the bytes themselves.
///
/// Each round first cuts a resumable download at the middle (untimed: the server drops the
/// connection there), then times the resume and the plain download, alternating which goes first.
struct ResumeWorkload: Sendable {
    static let name = "download_1gib_resumed"
    static let size = 1024 * FileWorkload.mebibyte

    /// Runs `rounds` rounds and returns the plain and the resumed samples, one transfer each.
    /// `first` numbers the rounds' cuts: the server cuts each offset once, so each run against the
    /// same server needs numbers of its own.
    func run(_ client: Client, files: FileWorkload.Files, rounds: Int, first: Int) async throws -> (plain: LoadRunner.Sample, resumed: LoadRunner.Sample) {
        var plain = LoadRunner.Sample()
        var resumed = LoadRunner.Sample()
        let destination = files.destination("courier.bin")
        for round in 0..<rounds {
            let cut = Self.size / 2 + first + round
            let file = Request<Data>(.get, "ranged/\(Self.size)", query: ["cut": cut]).timeout(.seconds(600))
            _ = try? await client.resumableDownload(file, to: destination)
            guard let saved = DownloadRecord.existing(for: destination), saved.bytesWritten > 0 else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the cut download left no record to resume"])
            }
            let resume = {
                let whole = try await client.resumableDownload(file, to: destination)
                guard whole.byteCount == Int64(Self.size) else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "resumed to \(whole.byteCount) bytes"])
                }
            }
            let range = {
                let request = Request<Data>(.get, "ranged/\(Self.size)").header(.range, "bytes=\(cut)-").timeout(.seconds(600))
                let part = try await client.download(request, to: files.destination("raw.bin"))
                guard part.byteCount == Int64(Self.size - cut) else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the range was \(part.byteCount) bytes"])
                }
            }
            if round % 2 == 0 {
                plain.add(try await Self.timed(range))
                resumed.add(try await Self.timed(resume))
            } else {
                resumed.add(try await Self.timed(resume))
                plain.add(try await Self.timed(range))
            }
            files.removeDownloads()
        }
        return (plain, resumed)
    }

    private static func timed(_ operation: () async throws -> Void) async throws -> LoadRunner.Sample {
        // Each side starts with nothing waiting to be written back (the other side's gigabyte, or
        // the cut half, would make the kernel throttle its writes sooner).
        sync()
        return try await LoadRunner.Sample.timing(operation)
    }
}
#endif
