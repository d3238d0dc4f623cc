import Courier
import Foundation
import ReferenceServer

extension AppFlow {
    /// A 50 MB download cut by the server at about half, then resumed with `Range` and `If-Range`
    /// to a file whose checksum matches the server's.
    func resumeCutDownload() async {
        transcript.heading("Download 50 MB, cut at half, then resume it")
        let size = 50_000_000
        let client = Client(baseURL: rootURL, transport: transport)
        do {
            try await withScratchDirectory { directory in
                let destination = directory.appendingPathComponent("episode.bin")
                // The server drops the connection at byte 25,000,000 of the first response only.
                let file = Request<Data>(.get, "ranged/\(size)", query: ["cut": size / 2])
                let cut = await capturing { () async throws(CourierError) -> DownloadedFile in try await client.resumableDownload(file, to: destination) }
                let saved = DownloadRecord.existing(for: destination)
                transcript.check(
                    cut != nil && (saved?.bytesWritten ?? 0) > 0,
                    "cut: \(cut?.kind.description ?? "no error"); \(saved?.bytesWritten ?? 0) bytes saved, version \(saved?.validator.fieldValue ?? "none")"
                )
                let bar = ProgressBar(transcript: transcript)
                let resumed = try await client.resumableDownload(file, to: destination, progress: bar.show)
                transcript.write("")
                struct Checksum: Decodable { var bytes: Int, checksum: UInt64 }
                let server = try await client.send(Request<Checksum>(.get, "ranged/\(size)/checksum"))
                let local = try FilePattern.checksum(of: destination).value
                transcript.check(
                    resumed.byteCount == Int64(size) && server.bytes == size && local == server.checksum,
                    "resumed from byte \(saved?.bytesWritten ?? 0) to \(resumed.byteCount) bytes; checksum \(local), the server's \(server.checksum)"
                )
            }
        } catch {
            transcript.write("")
            transcript.check(false, "resumable download failed: \(error.localizedDescription) — \(error)")
        }
    }

    /// The error `body` throws, or `nil` when it succeeds.
    private func capturing(_ body: () async throws(CourierError) -> DownloadedFile) async -> CourierError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
