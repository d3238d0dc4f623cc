import Foundation

/// What a request carries in its body, and how it is encoded.
///
/// Each kind sets `Content-Type` unless the endpoint set one itself:
///
/// | body | `Content-Type` |
/// | --- | --- |
/// | `.json(value)` | `application/json` |
/// | `.form(parameters)` | `application/x-www-form-urlencoded` |
/// | `.multipart(form)` | `multipart/form-data; boundary=…` |
/// | `.data(bytes, contentType:)` | the given type |
/// | `.file(url, contentType:)` | the given type |
///
/// ```swift
/// Request<Token>(.post, "authenticate", body: .json(Credentials(email: email, password: password)))
/// Request<Void>(.post, "events", body: .json(["name": "opened", "count": 3] as JSONValue))
/// ```
public struct RequestBody: Sendable {
    enum Content: Sendable {
        case json(any Encodable & Sendable)
        case form(QueryParameters)
        case multipart(MultipartFormData)
        case data(Data, contentType: String)
        case file(URL, contentType: String)
    }

    let content: Content

    /// A JSON body encoded with the client's `JSONEncoder` (or the endpoint's own).
    /// - Parameter value: Any `Encodable` value, including ``JSONValue``.
    public static func json(_ value: some Encodable & Sendable) -> RequestBody {
        RequestBody(content: .json(value))
    }

    /// An `application/x-www-form-urlencoded` body.
    /// - Parameter parameters: The fields, encoded like a query (space as `+`).
    public static func form(_ parameters: QueryParameters) -> RequestBody {
        RequestBody(content: .form(parameters))
    }

    /// A `multipart/form-data` body.
    /// - Parameter form: The fields and files.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        RequestBody(content: .multipart(form))
    }

    /// Bytes sent as they are.
    /// - Parameters:
    ///   - data: The body.
    ///   - contentType: Its media type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(content: .data(data, contentType: contentType))
    }

    /// A file's contents, streamed from disk as the transport sends them: memory stays constant
    /// whatever the file's size, and `Content-Length` is the file's size.
    ///
    /// ```swift
    /// Request<Void>(.put, "videos/\(id)", body: .file(recording, contentType: "video/mp4"))
    /// ```
    /// The file is opened when the request is sent (and again for a retried attempt); a file that
    /// cannot be read fails the call with ``CourierError/Kind/fileAccessFailed``.
    /// - Parameters:
    ///   - url: A `file:` URL.
    ///   - contentType: Its media type.
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(content: .file(url, contentType: contentType))
    }
}
