import Foundation

/// The file an upload task sends for a body read from disk: a file body's own file, or a form
/// with file parts written to a temporary file first.
///
/// An upload task sends a file with its size as `Content-Length` on every platform, where
/// swift-corelibs-foundation sends any body stream chunked, and Apple's loader reads the file
/// again itself when it must send the request again. A file body is checked for its size (the
/// one read when the body was built) before the upload starts and after it ends: a file that
/// changed fails the call. A form's files are checked as they are copied.
struct UploadFile: Sendable {
    /// The file the task sends.
    let url: URL
    /// The size a file body had when it was built; `nil` for a temporary copy.
    private let builtSize: Int64?

    /// The file to send for `payload`, a body read from disk.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when a file cannot be read or has changed
    ///   size since the body was built, or the copy cannot be written.
    static func prepare(_ payload: RequestPayload) throws(CourierError) -> UploadFile {
        if let segments = payload.segments, segments.count == 1, case .file(let url, let size) = segments[0] {
            let file = UploadFile(url: url, builtSize: size)
            try file.checkUnchanged(sent: false)
            return file
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        do {
            try payload.write(to: copy)
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw error
        }
        return UploadFile(url: copy, builtSize: nil)
    }

    /// Fails when a file body no longer has the size it had when the body was built.
    /// - Parameter sent: Whether the upload has run: the message then says the server may have a
    ///   body that does not match the file.
    /// - Throws: ``CourierError/Kind/fileAccessFailed``.
    func checkUnchanged(sent: Bool) throws(CourierError) {
        guard let builtSize else { return }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        guard size != builtSize else { return }
        guard sent else { throw SegmentReader.changedSize(url, size: builtSize) }
        throw CourierError(
            .fileAccessFailed,
            message: "\(url.lastPathComponent) changed size while it was sent (it had \(builtSize) bytes): what the server received may not match the file."
        )
    }

    /// Removes a temporary copy; a file body's own file stays.
    func remove() {
        if builtSize == nil { try? FileManager.default.removeItem(at: url) }
    }
}
