import Foundation

/// A `multipart/form-data` body: text fields and files, each part with its own content type.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", named: "display_name")
/// form.append(jpegData, named: "avatar", filename: "me.jpg", contentType: "image/jpeg")
/// let request = Request<AvatarReceipt>(.post, "users/\(id)/avatar", body: .multipart(form))
/// ```
///
/// A file part can come from disk instead of memory: it is read in pieces as the body is sent, so
/// memory stays constant whatever the file's size, and `Content-Length` is computed from the
/// parts' sizes:
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Holiday, day 3", named: "caption")
/// form.appendFile(at: recording, named: "video", filename: "day3.mp4", contentType: "video/mp4")
/// let request = Request<UploadReceipt>(.post, "videos", body: .multipart(form))
/// ```
///
/// The boundary is random (128 bits), and is chosen again if it ever occurs inside a part held in
/// memory, so any bytes can be sent.
public struct MultipartFormData: Sendable, Hashable {
    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// The form field name.
        public var name: String
        /// The file name, for file parts.
        public var filename: String?
        /// The part's content type; `nil` for plain text fields.
        public var contentType: String?
        /// The part's bytes, for a part held in memory.
        public var data: Data
        /// The file the part's bytes are read from as the body is sent; `nil` for a part held in
        /// memory.
        public var file: URL?
    }

    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Creates an empty form.
    public init() {}

    /// Appends a text field.
    /// - Parameters:
    ///   - value: The field's text, sent as UTF-8.
    ///   - name: The field name.
    public mutating func append(_ value: String, named name: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, data: Data(value.utf8)))
    }

    /// Appends a file.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - name: The field name.
    ///   - filename: The file name the server sees.
    ///   - contentType: The file's media type, `application/octet-stream` by default.
    public mutating func append(
        _ data: Data,
        named name: String,
        filename: String,
        contentType: String = "application/octet-stream"
    ) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, data: data))
    }

    /// Appends a file read from disk as the body is sent, never held in memory whole. Its size is
    /// read when the request is built (by `send`, `prepare` or an offline queue's `enqueue`,
    /// which fail with ``CourierError/Kind/fileAccessFailed`` for a file that cannot be read); a
    /// file that is longer or shorter when it is sent fails the upload with
    /// ``CourierError/Kind/fileAccessFailed`` before the body ends.
    /// - Parameters:
    ///   - url: A `file:` URL of a regular file.
    ///   - name: The field name.
    ///   - filename: The file name the server sees; the URL's last path component by default.
    ///   - contentType: The file's media type, `application/octet-stream` by default.
    public mutating func appendFile(
        at url: URL,
        named name: String,
        filename: String? = nil,
        contentType: String = "application/octet-stream"
    ) {
        parts.append(Part(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, data: Data(), file: url))
    }

    /// A boundary for this form: random, and chosen again while it occurs inside a part held in
    /// memory.
    func boundary() -> String {
        var boundary = Self.randomBoundary()
        while parts.contains(where: { $0.file == nil && $0.data.range(of: Data(boundary.utf8)) != nil }) {
            boundary = Self.randomBoundary()
        }
        return boundary
    }

    /// The `Content-Type` of the form encoded with `boundary`.
    /// - Parameter boundary: The boundary.
    /// - Returns: `multipart/form-data; boundary=…`.
    public static func contentType(boundary: String) -> String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// The encoded form as segments: each part's head and in-memory bytes, and its file, in order.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when a file part cannot be read.
    func segments(boundary: String) throws(CourierError) -> [BodySegment] {
        var segments: [BodySegment] = []
        var bytes = Data()
        for part in parts {
            bytes.append(Data("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
            bytes.append(Data("\(disposition)\r\n".utf8))
            if let contentType = part.contentType { bytes.append(Data("Content-Type: \(contentType)\r\n".utf8)) }
            bytes.append(Data("\r\n".utf8))
            if let file = part.file {
                segments.append(.bytes(bytes))
                segments.append(try BodySegment.file(file))
                bytes = Data()
            } else {
                bytes.append(part.data)
            }
            bytes.append(Data("\r\n".utf8))
        }
        bytes.append(Data("--\(boundary)--\r\n".utf8))
        segments.append(.bytes(bytes))
        return segments
    }

    private static func randomBoundary() -> String {
        "courier.boundary." + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// Escapes a name for a quoted header parameter, as the HTML standard's form encoding does:
    /// `"` as `%22`, CR and LF as `%0D` and `%0A`, so no name can end the header early.
    private static func quoted(_ name: String) -> String {
        name.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
