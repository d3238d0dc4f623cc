import Foundation

/// The partial file of a resumable download and its record, beside the destination:
/// `.NAME.part` and `.NAME.part.record`.
///
/// The order of writes keeps the two consistent whatever moment a process dies: bytes of a new
/// version are written only after a record naming that version, and a record counts only bytes
/// already flushed to the file. Resuming takes the smaller of the record's count and the file's
/// size.
struct PartialDownload: Sendable {
    let destination: URL
    let file: URL
    let recordFile: URL

    init(destination: URL) {
        self.destination = destination
        let directory = destination.deletingLastPathComponent()
        file = directory.appendingPathComponent(".\(destination.lastPathComponent).part")
        recordFile = directory.appendingPathComponent(".\(destination.lastPathComponent).part.record")
    }

    /// The record, when one exists and decodes (a record from another version of Courier or a
    /// damaged one counts as none).
    func readRecord() -> DownloadRecord? {
        guard let data = try? Data(contentsOf: recordFile), data.count <= 64 * 1024 else { return nil }
        return try? JSONDecoder().decode(DownloadRecord.self, from: data)
    }

    /// The record and how many of its bytes the file holds, when a download can resume.
    func resumableState() -> (record: DownloadRecord, offset: Int64)? {
        guard let record = readRecord(), record.bytesWritten >= 0 else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        return (record, min(record.bytesWritten, size))
    }

    /// Replaces the record in one step.
    /// - Throws: ``CourierError`` (`fileAccessFailed`).
    func write(_ record: DownloadRecord) throws(CourierError) {
        do {
            let data = try JSONEncoder().encode(record)
            try data.write(to: recordFile, options: .atomic)
        } catch {
            throw CourierError(.fileAccessFailed, message: "The download's record could not be saved to \(recordFile.path).", underlyingError: error)
        }
    }

    /// Deletes the partial file and its record.
    func discard() {
        try? FileManager.default.removeItem(at: recordFile)
        try? FileManager.default.removeItem(at: file)
    }

    /// Opens the partial file for writing at any offset, creating it when missing.
    /// - Throws: ``CourierError`` (`fileAccessFailed`).
    func open() throws(CourierError) -> PartialFile {
        try PartialFile(url: file)
    }

    /// Moves the finished file into place, replacing `destination` in one step, and deletes the
    /// record.
    /// - Throws: ``CourierError`` (`fileAccessFailed`).
    func finish() throws(CourierError) {
        guard rename(file.path, destination.path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            throw CourierError(.fileAccessFailed, message: "The download could not be saved to \(destination.path).", underlyingError: error)
        }
        try? FileManager.default.removeItem(at: recordFile)
    }
}
