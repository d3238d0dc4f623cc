import ArgumentParser
import Courier
import Foundation

/// Downloads one URL to a file with ``Client/resumableDownload(_:to:progress:renewingRequest:)``,
/// printing the bytes saved: run it again after a cut or a kill and it resumes.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download a URL to a file, resuming what an earlier run saved."
    )

    @Option(help: "The server's origin, e.g. http://127.0.0.1:8080.")
    var baseURL: String

    @Option(help: "The path below the origin, e.g. ranged/50000000.")
    var path: String

    @Option(name: .customLong("query"), help: "A query item, name=value; repeat for more.")
    var queryItems: [String] = []

    @Option(help: "The file to write.")
    var to: String

    @Option(help: "The transport: urlsession or asynchttpclient.")
    var transport = TransportChoice.urlsession

    func run() async throws {
        let client = Client(baseURL: BaseURL(baseURL), transport: try transport.make())
        let destination = URL(fileURLWithPath: to)
        let resumedFrom = DownloadRecord.existing(for: destination)?.bytesWritten ?? 0
        say("resuming from \(resumedFrom)")
        var query = QueryParameters()
        for item in queryItems {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            query.set(parts[0], .text(parts.count > 1 ? parts[1] : ""))
        }
        // The last mebibyte printed: progress may arrive from several tasks.
        let printed = LockedState<Int64>(-1)
        let file = try await client.resumableDownload(
            Request<Data>(.get, Path(stringLiteral: path), query: query), to: destination,
            progress: { progress in
                // A line each mebibyte, flushed, so that a parent process sees how far the download is.
                let mebibytes = progress.completedBytes >> 20
                let isNew = printed.withLock { last -> Bool in
                    guard last < mebibytes else { return false }
                    last = mebibytes
                    return true
                }
                guard isNew else { return }
                say("saved \(progress.completedBytes)")
            })
        say("done \(file.byteCount)")
    }

    /// Writes a line to standard output at once (no buffer), for a parent process reading it.
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
