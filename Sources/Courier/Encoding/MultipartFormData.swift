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
/// The boundary is random, and is chosen again if it ever occurs inside a part, so any bytes can
/// be sent.
public struct MultipartFormData: Sendable, Hashable {
    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// The form field name.
        public var name: String
        /// The file name, for file parts.
        public var filename: String?
        /// The part's content type; `nil` for plain text fields.
        public var contentType: String?
        /// The part's bytes.
        public var data: Data
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

    /// Encodes the parts.
    /// - Parameter boundary: The boundary to use; a fresh random one when `nil`.
    /// - Returns: The body and the `Content-Type` value that names its boundary.
    func encoded(boundary: String? = nil) -> (body: Data, contentType: String) {
        var boundary = boundary ?? Self.randomBoundary()
        while parts.contains(where: { $0.data.range(of: Data(boundary.utf8)) != nil }) {
            boundary = Self.randomBoundary()
        }
        var body = Data()
        for part in parts {
            body.append(Data("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
            body.append(Data("\(disposition)\r\n".utf8))
            if let contentType = part.contentType { body.append(Data("Content-Type: \(contentType)\r\n".utf8)) }
            body.append(Data("\r\n".utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return (body, "multipart/form-data; boundary=\(boundary)")
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
