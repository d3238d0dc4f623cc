import Courier
import Foundation

/// What a stub answers one request with: a status, header fields and a body, or a transport
/// failure; after a delay, in chunks, at a bandwidth.
///
/// ```swift
/// stub.answer(.get("movie/popular"), with: .json(page))
/// stub.answer(.get("profile"), with: .json(["message": "Not found"], status: .notFound))
/// stub.answer(.get("trailer"), with: .data(video, contentType: "video/mp4").throttled(bytesPerSecond: 100_000))
/// stub.answer(.get("feed"), with: .failure(.offline))
/// ```
public struct StubResponse: Sendable {
    enum Outcome: Sendable {
        case response(HTTPResponse.Status, HTTPFields, Data)
        case failure(StubFailure)
        /// A response that could not be made (a fixture that does not read, a value that does not
        /// encode): the call fails with this message.
        case invalid(String)
    }

    var outcome: Outcome
    /// How long the stub waits, on its clock, before the response head (or the failure).
    public var latency: Duration = .zero
    /// The size of the chunks the body arrives in; the whole body at once when `nil`.
    public var chunkSize: Int?
    /// The bytes per second the body arrives at, on the stub's clock; unlimited when `nil`.
    public var bytesPerSecond: Int?
    /// What holds the answer back until the test opens it; nothing when `nil`.
    public var gate: StubGate?
    /// What keeps the body open after its last byte until the test opens it; the body ends with
    /// its last byte when `nil`.
    public var bodyGate: StubGate?

    init(_ outcome: Outcome) {
        self.outcome = outcome
    }

    /// A response with a status, header fields and a body of bytes.
    /// - Parameters:
    ///   - status: The status.
    ///   - headerFields: The header fields.
    ///   - body: The body; none by default.
    /// - Returns: The response.
    public static func status(_ status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data()) -> StubResponse {
        StubResponse(.response(status, headerFields, body))
    }

    /// A response with a body of bytes.
    /// - Parameters:
    ///   - data: The body.
    ///   - status: The status; 200 by default.
    ///   - contentType: The `Content-Type`.
    ///   - headerFields: More header fields.
    /// - Returns: The response.
    public static func data(
        _ data: Data,
        status: HTTPResponse.Status = .ok,
        contentType: String = "application/octet-stream",
        headerFields: HTTPFields = [:]
    ) -> StubResponse {
        var fields = headerFields
        fields[.contentType] = contentType
        return .status(status, headerFields: fields, body: data)
    }

    /// A response with a text body.
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status; 200 by default.
    ///   - contentType: The `Content-Type`; plain UTF-8 text by default.
    /// - Returns: The response.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8") -> StubResponse {
        .data(Data(text.utf8), status: status, contentType: contentType)
    }

    /// A JSON response encoding `value`.
    /// - Parameters:
    ///   - value: What the body encodes.
    ///   - status: The status; 200 by default.
    ///   - headerFields: More header fields.
    ///   - encoder: How `value` is written; mind the key and date strategies the client decodes with.
    /// - Returns: The response; a call it answers fails with the encoding error when `value`
    ///   does not encode.
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headerFields: HTTPFields = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) -> StubResponse {
        do {
            return .data(try encoder.encode(value), status: status, contentType: "application/json", headerFields: headerFields)
        } catch {
            return StubResponse(.invalid("The stub's \(type(of: value)) does not encode: \(error)"))
        }
    }

    /// A JSON response.
    /// - Parameters:
    ///   - value: The body, e.g. `["message": "Not found"]`.
    ///   - status: The status; 200 by default.
    ///   - headerFields: More header fields.
    /// - Returns: The response.
    public static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, headerFields: HTTPFields = [:]) -> StubResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .json(value, status: status, headerFields: headerFields, encoder: encoder)
    }

    /// A response whose body is a file's contents, read now.
    /// - Parameters:
    ///   - file: The file, e.g. `Bundle.module.url(forResource: "popular", withExtension: "json")`.
    ///   - status: The status; 200 by default.
    ///   - contentType: The `Content-Type`; by default from the file's extension (`json`, `txt`,
    ///     `html`, `xml`, `png`, `jpg`), otherwise `application/octet-stream`.
    ///   - headerFields: More header fields.
    /// - Returns: The response; a call it answers fails naming the file when it does not read.
    public static func fixture(
        _ file: URL?,
        status: HTTPResponse.Status = .ok,
        contentType: String? = nil,
        headerFields: HTTPFields = [:]
    ) -> StubResponse {
        guard let file else { return StubResponse(.invalid("The fixture file was not found (its URL is nil).")) }
        do {
            let data = try Data(contentsOf: file)
            return .data(data, status: status, contentType: contentType ?? Self.contentType(of: file), headerFields: headerFields)
        } catch {
            return StubResponse(.invalid("The fixture \(file.path) does not read: \(error.localizedDescription)"))
        }
    }

    /// A transport failure instead of a response.
    /// - Parameter failure: Offline, timed out, connection reset, untrusted server, or any error.
    /// - Returns: The answer.
    public static func failure(_ failure: StubFailure) -> StubResponse {
        StubResponse(.failure(failure))
    }

    /// This answer after `latency` on the stub's clock.
    /// - Parameter latency: How long before the response head arrives.
    /// - Returns: The delayed answer.
    public func delayed(by latency: Duration) -> StubResponse {
        var copy = self
        copy.latency = latency
        return copy
    }

    /// This answer once `gate` is open: until then the request waits, as at a server that has not
    /// answered yet, and ends as over a network when its call is cancelled or times out.
    /// - Parameter gate: What holds the answer back.
    /// - Returns: The held answer.
    public func held(until gate: StubGate) -> StubResponse {
        var copy = self
        copy.gate = gate
        return copy
    }

    /// This answer with its body kept open after its last byte until `gate` opens, as a stream the
    /// server has not finished (server-sent events, a long poll): the reader waits for more, and
    /// the body ends when the gate opens. A reader that gives up first (its task cancelled, an idle
    /// timeout) closes it as over a network, and the gate's ``StubGate/cancelledCount`` counts it.
    ///
    /// ```swift
    /// let silence = StubGate()
    /// stub.answer(.get("ticker"), with: .text("", contentType: "text/event-stream").keptOpen(until: silence))
    /// ```
    /// - Parameter gate: What keeps the body open; opening it ends the body.
    /// - Returns: The answer, its body of unknown length (no `Content-Length`).
    public func keptOpen(until gate: StubGate) -> StubResponse {
        var copy = self
        copy.bodyGate = gate
        return copy
    }

    /// This answer with its body in chunks of `size` bytes.
    /// - Parameter size: Bytes per chunk, at least 1.
    /// - Returns: The chunked answer.
    public func chunked(into size: Int) -> StubResponse {
        var copy = self
        copy.chunkSize = max(1, size)
        return copy
    }

    /// This answer with its body arriving at `bytesPerSecond` on the stub's clock, in chunks of a
    /// tenth of a second (unless ``chunked(into:)`` chose a size): downloads report progress as
    /// over a slow network.
    /// - Parameter bytesPerSecond: The bandwidth, at least 1.
    /// - Returns: The throttled answer.
    public func throttled(bytesPerSecond: Int) -> StubResponse {
        var copy = self
        copy.bytesPerSecond = max(1, bytesPerSecond)
        return copy
    }

    /// This answer with one more header field (replacing any of that name).
    /// - Parameters:
    ///   - name: The field's name.
    ///   - value: Its value.
    /// - Returns: The answer.
    public func header(_ name: HTTPField.Name, _ value: String) -> StubResponse {
        var copy = self
        if case .response(let status, var fields, let body) = outcome {
            fields[name] = value
            copy.outcome = .response(status, fields, body)
        }
        return copy
    }

    private static func contentType(of file: URL) -> String {
        switch file.pathExtension.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        case "xml": "application/xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        default: "application/octet-stream"
        }
    }
}
