import Foundation

/// How a ``Transport`` delivers a response body: collected in memory up to a limit, written to a
/// file, or streamed.
///
/// Whatever the choice, a body the call keeps in memory (every body for ``collected(upTo:)``, and
/// the body of a non-2xx response otherwise) has at most ``limit`` bytes after content decoding;
/// past it the transport stops reading and fails with ``CourierError/Kind/responseTooLarge``.
public struct ResponseBodyDelivery: Sendable {
    private enum Kind: Sendable {
        case memory
        case file(URL)
        case stream
    }

    private let kind: Kind
    /// The most bytes of a body kept in memory.
    public let limit: Int

    private init(_ kind: Kind, limit: Int) {
        self.kind = kind
        self.limit = limit
    }

    /// The whole body in memory, at most `limit` bytes.
    /// - Parameter limit: The most bytes the body may have.
    /// - Returns: The delivery.
    public static func collected(upTo limit: Int) -> Self {
        Self(.memory, limit: limit)
    }

    /// A successful (2xx) response's body written to `file` as it arrives (created or replaced);
    /// any other response's body collected in memory, at most `limit` bytes.
    /// - Parameters:
    ///   - file: A `file:` URL whose directory exists.
    ///   - limit: The most bytes of a failure's body.
    /// - Returns: The delivery.
    public static func file(_ file: URL, collectingFailuresUpTo limit: Int) -> Self {
        Self(.file(file), limit: limit)
    }

    /// A successful (2xx) response's body handed over unread; any other response's body collected
    /// in memory, at most `limit` bytes.
    /// - Parameter limit: The most bytes of a failure's body.
    /// - Returns: The delivery.
    public static func streamed(collectingFailuresUpTo limit: Int) -> Self {
        Self(.stream, limit: limit)
    }

    /// The file a successful body goes to; `nil` unless the body is written to a file.
    public var destination: URL? {
        if case .file(let url) = kind { url } else { nil }
    }

    /// Whether a successful body is handed over unread.
    public var streamsSuccess: Bool {
        if case .stream = kind { true } else { false }
    }

    /// Whether `response`'s body is handed over unread: its end is not the exchange's.
    package func streams(_ response: HTTPResponse) -> Bool {
        streamsSuccess && response.status.kind == .successful
    }

    /// Whether every body is collected in memory.
    public var collectsAll: Bool {
        if case .memory = kind { true } else { false }
    }
}
