import Courier
import Foundation
import ReferenceServer

extension AppFlow {
    /// A 50 MB download to a file with a live progress bar, then the same file uploaded back.
    func transferLargeFile() async {
        transcript.heading("Download 50 MB to a file, then upload it back")
        let size = 50_000_000
        let client = Client(baseURL: rootURL, transport: transport)
        do {
            try await withScratchDirectory { directory in
                let destination = directory.appendingPathComponent("sample.bin")
                let bar = ProgressBar(transcript: transcript)
                let started = ContinuousClock.now
                let file = try await client.download(Request<Data>(.get, "files/\(size)"), to: destination, progress: bar.show)
                let elapsed = ContinuousClock.now - started
                transcript.write("")
                let tail = try FileHandle(forReadingFrom: destination)
                try tail.seek(toOffset: UInt64(size - 1000))
                let lastBytes = try tail.readToEnd() ?? Data()
                try tail.close()
                transcript.check(
                    file.byteCount == Int64(size) && lastBytes == Data(FilePattern.bytes((size - 1000)..<size)),
                    "\(file.byteCount) bytes in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow))), streamed to \(file.url.lastPathComponent) (memory stays flat)"
                )

                struct Receipt: Decodable { var bytes: Int }
                let upload = ProgressBar(transcript: transcript)
                let receipt = try await client.send(Request<Receipt>(.put, "files", body: .file(destination)), progress: upload.show)
                transcript.write("")
                transcript.check(receipt.bytes == size, "uploaded from the file: the server received \(receipt.bytes) bytes")
            }
        } catch {
            transcript.write("")
            transcript.check(false, "transfer failed: \(error.localizedDescription) — \(error)")
        }
    }
}

extension AppFlow {
    /// Runs `body` with a new directory for one step's files, and removes it afterwards.
    func withScratchDirectory(_ body: (URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory)
    }
}

/// Draws `[#####.....] 42%  21.0 of 50.0 MB` on one line, redrawn only when the percentage grows.
final class ProgressBar: @unchecked Sendable {
    // @unchecked: `shownPercent` is only touched under `lock`; progress arrives from any task.
    private let lock = NSLock()
    private var shownPercent = -1
    private let transcript: Transcript

    init(transcript: Transcript) {
        self.transcript = transcript
    }

    func show(_ progress: TransferProgress) {
        let fraction = progress.fractionCompleted ?? 0
        // On a terminal every percent; on a pipe (CI logs) every tenth, to keep the log short.
        let step = isatty(STDOUT_FILENO) == 1 ? 1 : 10
        let percent = Int(fraction * 100) / step * step
        lock.withLock {
            // Progress may arrive from several tasks; draw each new percentage once, in order.
            guard percent > shownPercent else { return }
            shownPercent = percent
            draw(progress, fraction: fraction, percent: percent)
        }
    }

    private func draw(_ progress: TransferProgress, fraction: Double, percent: Int) {
        let filled = Int(fraction * 30)
        let done = Double(progress.completedBytes) / 1_000_000
        let total = Double(progress.totalBytes ?? 0) / 1_000_000
        let verb = progress.direction == .download ? "down" : "up"
        transcript.progress(
            "\(verb) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: 30 - filled))] \(percent)%  \(String(format: "%.1f", done)) of \(String(format: "%.1f", total)) MB"
        )
    }
}
