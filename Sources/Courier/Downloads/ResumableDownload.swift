import Foundation
import HTTPTypes

/// One call of ``Client/resumableDownload(_:to:progress:renewingRequest:)``: the partial file, the
/// record of the version it holds, and how many bytes from the start are saved.
struct ResumableDownload {
    /// A record is written once this many bytes arrived since the last, or once a second when
    /// at least ``recordMinimum`` did.
    static let recordInterval: Int64 = 8 * 1024 * 1024
    static let recordMinimum: Int64 = 64 * 1024
    /// How many times one call starts the file again before it gives up.
    static let mostRestarts = 2

    let partial: PartialDownload
    let file: PartialFile
    /// The URL the record keeps (query values redacted).
    var url: String
    let progress: (@Sendable (TransferProgress) -> Void)?
    /// The version the saved bytes belong to; `nil` when it has no validator (nothing resumes).
    private(set) var record: DownloadRecord?
    /// Bytes saved from the start of the file, without a gap.
    private(set) var offset: Int64 = 0
    /// `offset` when the record was last written.
    private var recorded: Int64 = 0
    /// When the record was last written.
    private var recordedAt = ContinuousClock.now

    /// Opens the partial file, and resumes from its record when the record is of the same URL.
    init(partial: PartialDownload, url: String, progress: (@Sendable (TransferProgress) -> Void)?) throws(CourierError) {
        self.partial = partial
        self.url = url
        self.progress = progress
        if let saved = partial.resumableState(), saved.record.url == url {
            record = saved.record
            offset = saved.offset
            recorded = saved.offset
        } else {
            partial.discard()
        }
        file = try partial.open()
    }

    /// `base` with the fields a resumable download sends: `Accept-Encoding: identity` (a range
    /// of a compressed body is not a range of the file), and `Range` with `If-Range` when bytes
    /// are saved; with the range's first byte.
    func request<Response>(for base: Request<Response>) -> (Request<Response>, offset: Int64?) {
        var request = base
        request.headerFields[.acceptEncoding] = "identity"
        guard let record, offset > 0 else {
            request.headerFields[.range] = nil
            request.headerFields[.ifRange] = nil
            return (request, nil)
        }
        request.headerFields[.range] = "bytes=\(offset)-"
        request.headerFields[.ifRange] = record.validator.fieldValue
        return (request, offset)
    }

    /// Writes the record of the bytes saved so far. The bytes are in the system's page cache by
    /// then, so a process that dies at any moment keeps them; a failed call also flushes them to
    /// the disk first.
    mutating func save() throws(CourierError) {
        guard var record else { return }
        record.bytesWritten = offset
        record.url = url
        try partial.write(record)
        self.record = record
        recorded = offset
        recordedAt = .now
    }

    private var isDueForRecord: Bool {
        let unrecorded = offset - recorded
        return unrecorded >= Self.recordInterval || (unrecorded >= Self.recordMinimum && ContinuousClock.now - recordedAt >= .seconds(1))
    }

    /// Forgets the saved bytes, so the next request asks for the whole file.
    /// - Throws: ``CourierError`` (`invalidResponse`) once the server's answers made the file start
    ///   again more than ``mostRestarts`` times in this call.
    mutating func startAgain(after restarts: Int, reason: String) throws(CourierError) {
        guard restarts <= Self.mostRestarts else {
            throw CourierError(.invalidResponse, message: "The server's answers to a resumed download could not be used: \(reason).")
        }
        try? FileManager.default.removeItem(at: partial.recordFile)
        (record, offset, recorded) = (nil, 0, 0)
    }

    /// Starts the file again for a whole body: empties it, then records the response's version
    /// (or no record, when it has no validator).
    mutating func beginWhole(response: HTTPResponse, length: Int64?) throws(CourierError) {
        try file.truncate(to: 0)
        (offset, recorded) = (0, 0)
        if let validator = DownloadRecord.validator(of: response) {
            let record = DownloadRecord(url: url, validator: validator, bytesWritten: 0, totalBytes: length)
            try partial.write(record)
            self.record = record
        } else {
            try? FileManager.default.removeItem(at: partial.recordFile)
            record = nil
        }
    }

    /// After a 416 to a range: whether the saved bytes are the whole file (its recorded length, or
    /// all there is when the length was never given). The file is cut to that length.
    mutating func finishIfWhole() throws(CourierError) -> Bool {
        guard record != nil else { return false }
        let length = record?.totalBytes ?? offset
        guard offset >= length else { return false }
        try file.truncate(to: length)
        offset = length
        return true
    }

    /// Writes a body's bytes at `first` onwards.
    /// - Returns: Whether the file is whole; `false` when the server sent a range that ends
    ///   before the file does, and the rest is still to ask for.
    /// - Throws: ``CourierError``; the record is saved first.
    mutating func write(_ stream: ResponseStream, from first: Int64, end: Int64?, total: Int64?) async throws(CourierError) -> Bool {
        var position = first
        report(total: total)
        do {
            for try await chunk in stream {
                let count = Int64(chunk.count)
                if let end, position + count > end {
                    throw CourierError(.invalidResponse, message: "The server sent more than the \(end - first) bytes it announced.")
                }
                try file.write(chunk, at: position)
                position += count
                offset = max(offset, position)
                if record != nil, isDueForRecord { try save() }
                report(total: total)
            }
        } catch {
            try? file.flush()
            try? save()
            // A transport may report the connection it closed for a cancelled task as a cut.
            throw Task.isCancelled ? CourierError(.cancelled) : CourierError(error)
        }
        if Task.isCancelled {
            // A transport may end the body of a cancelled task as if it were whole.
            try save()
            throw CourierError(.cancelled)
        }
        if let end, position < end {
            try save()
            throw CourierError(.invalidResponse, message: "The body ended after \(position - first) of the \(end - first) bytes announced.")
        }
        if let total, offset < total {
            try save()
            return false
        }
        return true
    }

    /// Moves the whole file into place and deletes the record.
    mutating func finish(response: HTTPResponse) throws(CourierError) -> DownloadedFile {
        try file.truncate(to: offset)
        try partial.finish()
        return DownloadedFile(url: partial.destination, byteCount: offset, response: response)
    }

    /// Moves the whole file, read from `stream`, into place, with how the stream arrived.
    mutating func finish(_ stream: ResponseStream) throws(CourierError) -> DownloadedFile {
        var file = try finish(response: stream.response)
        file.httpVersion = stream.httpVersion
        file.timings = stream.timings?.ended(at: Date())
        return file
    }

    private func report(total: Int64?) {
        progress?(TransferProgress(direction: .download, completedBytes: offset, totalBytes: total ?? record?.totalBytes))
    }
}
