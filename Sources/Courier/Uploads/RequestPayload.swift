import Foundation
import OpenAPIRuntime

/// A request body as it travels from the endpoint to the transport: bytes in memory, a stream, a
/// file, or the parts of a multipart form. One value, which says how long the body is and whether
/// it can be sent again (for a retry, a redirect that keeps the body, or the offline queue).
///
/// Middleware sees the body as ``body``, an `HTTPBody` that streams whichever kind this is. A
/// middleware that passes that same `HTTPBody` on leaves the payload as it is, so that a
/// transport still sends a file from disk; one that passes a body of its own replaces the payload
/// with a ``Source/stream(_:)`` of it. Nothing else needs clearing.
public struct RequestPayload: Sendable, Hashable {
    /// What the body is made of.
    public enum Source: Sendable, Hashable {
        /// Bytes in memory.
        case bytes(Data)
        /// An `HTTPBody` from elsewhere (a middleware's own body, an OpenAPI client's).
        case stream(HTTPBody)
        /// A file's contents, streamed from disk.
        case file(URL)
        /// A multipart form: its text fields and in-memory files as bytes, its file parts streamed
        /// from disk, with the boundary it was encoded with.
        case multipart(MultipartFormData, boundary: String)
    }

    /// What the body is made of.
    public let source: Source
    /// The body's length in bytes, when it is known before it is sent: always, except for a
    /// stream of unknown length.
    public let length: Int64?
    /// The body as an `HTTPBody`, read in pieces from memory or disk: what middleware receives,
    /// and what a transport reads when it does not handle the ``source`` itself.
    public let body: HTTPBody
    /// The stretches a file or multipart body is read from, in order; `nil` for bytes and streams.
    package let segments: [BodySegment]?

    private init(source: Source, body: HTTPBody, segments: [BodySegment]?) {
        self.source = source
        self.body = body
        self.segments = segments
        switch body.length {
        case .known(let length): self.length = length
        case .unknown: self.length = nil
        }
    }

    /// Whether the body can be sent again: bytes, files and forms can (a file is read again, and
    /// must still have its size); a stream only when it can be iterated more than once.
    public var canBeSentAgain: Bool {
        body.iterationBehavior == .multiple
    }

    /// A body of bytes in memory.
    /// - Parameter data: The bytes.
    /// - Returns: The payload.
    public static func bytes(_ data: Data) -> RequestPayload {
        RequestPayload(source: .bytes(data), body: HTTPBody(data), segments: nil)
    }

    /// A body streamed from an `HTTPBody`; it can be sent again only when the `HTTPBody` can be
    /// iterated more than once.
    /// - Parameter body: The body.
    /// - Returns: The payload.
    public static func stream(_ body: HTTPBody) -> RequestPayload {
        RequestPayload(source: .stream(body), body: body, segments: nil)
    }

    /// A file's contents, read from disk in pieces as they are sent; its size is read now and is
    /// the body's length.
    /// - Parameter url: A `file:` URL of a regular file.
    /// - Returns: The payload.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the file cannot be read,
    ///   ``CourierError/Kind/invalidRequest`` for a URL that is not a `file:` URL.
    public static func file(_ url: URL) throws(CourierError) -> RequestPayload {
        segmented(.file(url), [try BodySegment.file(url)])
    }

    /// A multipart form, its file parts read from disk in pieces as they are sent; the length is
    /// computed from the parts' sizes, so the body needs no chunked encoding.
    /// - Parameters:
    ///   - form: The form.
    ///   - boundary: The boundary; see ``MultipartFormData/contentType(boundary:)``.
    /// - Returns: The payload.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when a file part cannot be read,
    ///   ``CourierError/Kind/invalidRequest`` for a file part whose URL is not a `file:` URL.
    public static func multipart(_ form: MultipartFormData, boundary: String) throws(CourierError) -> RequestPayload {
        try segmented(.multipart(form, boundary: boundary), try form.segments(boundary: boundary))
    }

    private static func segmented(_ source: Source, _ segments: [BodySegment]) -> RequestPayload {
        let length = segments.reduce(Int64(0)) { $0 + $1.length }
        let body = HTTPBody(SegmentBody(segments: segments), length: .known(length), iterationBehavior: .multiple)
        return RequestPayload(source: source, body: body, segments: segments)
    }

    /// Whether two payloads are the same body: the same bytes, file or form, or the same stream.
    /// - Parameters:
    ///   - lhs: A payload.
    ///   - rhs: Another payload.
    /// - Returns: Whether their sources are equal.
    public static func == (lhs: RequestPayload, rhs: RequestPayload) -> Bool {
        lhs.source == rhs.source
    }

    /// Hashes the payload's source.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }

    /// Whether the whole body is held in memory: bytes, or a form without file parts.
    package var isInMemory: Bool {
        switch source {
        case .bytes: true
        case .file, .stream: false
        case .multipart:
            (segments ?? []).allSatisfy {
                if case .bytes = $0 { true } else { false }
            }
        }
    }

    /// The file the body is, when it is one.
    package var file: URL? {
        if case .file(let url) = source { return url }
        return nil
    }

    /// The bytes the body is, when it is held in memory: bytes, or a form without file parts.
    package var bytes: Data? {
        switch source {
        case .bytes(let data): return data
        case .file, .stream: return nil
        case .multipart:
            guard isInMemory else { return nil }
            var data = Data()
            for segment in segments ?? [] {
                guard case .bytes(let bytes) = segment else { return nil }
                data.append(bytes)
            }
            return data
        }
    }

    /// The payload that travels with `body` as a middleware passed it on: this one when it is this
    /// payload's own body, else a stream of it.
    /// - Parameters:
    ///   - payload: The payload the call started with.
    ///   - body: The body the last middleware passed on.
    /// - Returns: The payload to send.
    static func passedOn(_ payload: RequestPayload?, as body: HTTPBody?) -> RequestPayload? {
        guard let body else { return nil }
        if let payload, payload.body === body { return payload }
        return .stream(body)
    }

    /// Writes the whole body to `destination`, a piece at a time (the offline queue keeps a form
    /// this way).
    /// - Parameter destination: A `file:` URL; an existing file there is replaced.
    /// - Throws: ``CourierError/Kind/fileAccessFailed``; ``CourierError/Kind/invalidRequest`` for a
    ///   stream, which cannot be written ahead of time.
    package func write(to destination: URL) throws(CourierError) {
        let segments: [BodySegment]
        switch source {
        case .bytes(let data): segments = [.bytes(data)]
        case .stream: throw CourierError(.invalidRequest, message: "A streamed body cannot be stored ahead of sending.")
        case .file, .multipart: segments = self.segments ?? []
        }
        do {
            _ = FileManager.default.createFile(atPath: destination.path, contents: nil)
            let handle = try FileHandle(forWritingTo: destination)
            defer { try? handle.close() }
            let reader = SegmentReader(segments)
            while let piece = try reader.next() { try handle.write(contentsOf: piece) }
        } catch let error as CourierError {
            throw error
        } catch {
            throw CourierError(.fileAccessFailed, message: "The body could not be written to \(destination.lastPathComponent).", underlyingError: error)
        }
    }
}
