import Foundation
import HTTPTypes

/// What a resumable download has saved so far, kept in a small file beside its partial file.
///
/// ``Client/resumableDownload(_:to:progress:renewingRequest:)`` writes it as the bytes arrive and
/// reads it to resume. An app can read it too, to show how far an interrupted download came:
///
/// ```swift
/// if let record = DownloadRecord.existing(for: destination) {
///     label.text = "\(record.bytesWritten) of \(record.totalBytes ?? 0) bytes saved"
/// }
/// ```
/// The record is replaced in one step (a new file renamed over the old one), so a crash or a
/// `SIGKILL` at any point leaves either the previous record or the next. The URL is kept with every
/// query value replaced by `***`, so no signature or API key in a query reaches the disk.
public struct DownloadRecord: Codable, Sendable, Equatable {
    /// The validator that ties the saved bytes to one version of the file.
    public enum Validator: Codable, Sendable, Equatable {
        /// A strong `ETag`, with its quotes: `"v2"`.
        case entityTag(String)
        /// `Last-Modified`, used when the server sends no strong `ETag`.
        case lastModified(String)

        /// The value `If-Range` carries.
        public var fieldValue: String {
            switch self {
            case .entityTag(let tag): tag
            case .lastModified(let date): date
            }
        }
    }

    /// The URL the bytes came from, with query values redacted.
    public var url: String
    /// The version the saved bytes belong to.
    public var validator: Validator
    /// Bytes saved and flushed from the start of the file.
    public var bytesWritten: Int64
    /// The file's full length, when the server gave it.
    public var totalBytes: Int64?

    /// Creates a record.
    /// - Parameters:
    ///   - url: The URL, with query values redacted.
    ///   - validator: The version's validator.
    ///   - bytesWritten: Bytes saved from the start.
    ///   - totalBytes: The full length, when known.
    public init(url: String, validator: Validator, bytesWritten: Int64, totalBytes: Int64?) {
        self.url = url
        self.validator = validator
        self.bytesWritten = bytesWritten
        self.totalBytes = totalBytes
    }

    /// The record of an unfinished download to `destination`, or `nil` when there is none.
    /// - Parameter destination: The `file:` URL the download was given.
    /// - Returns: The record, when one was saved and can be read.
    public static func existing(for destination: URL) -> DownloadRecord? {
        PartialDownload(destination: destination).readRecord()
    }

    /// Deletes the partial file and the record of an unfinished download to `destination`, so the
    /// next download starts from the beginning.
    /// - Parameter destination: The `file:` URL the download was given.
    public static func discard(for destination: URL) {
        PartialDownload(destination: destination).discard()
    }

    /// The validator a response offers for resuming: its `ETag` when strong, otherwise its
    /// `Last-Modified`; `nil` when it has neither, or when its body is content-coded (a range of a
    /// compressed body is not a range of the file saved).
    static func validator(of response: HTTPResponse) -> Validator? {
        let fields = response.headerFields
        guard fields[.contentEncoding].map(ContentCoding.listed(in:))?.isEmpty ?? true else { return nil }
        if let tag = fields[.eTag]?.trimmingCharacters(in: .whitespaces), tag.hasPrefix("\""), tag.hasSuffix("\""), tag.count >= 2,
            tag.utf8.count <= 256
        {
            return .entityTag(tag)
        }
        if let date = fields[.lastModified]?.trimmingCharacters(in: .whitespaces), !date.isEmpty, date.utf8.count <= 64,
            HTTPDate.parse(date) != nil
        {
            return .lastModified(date)
        }
        return nil
    }
}
