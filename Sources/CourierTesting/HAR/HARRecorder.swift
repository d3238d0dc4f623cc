import Courier
import Foundation

/// A `Transport` that passes every request to a real transport and records the
/// exchanges as HAR 1.2, without credentials, for a ``StubTransport`` to replay later.
///
/// Header fields that carry credentials (`CredentialFields.default`, `Set-Cookie`, and
/// any named like a token, key or secret), credential query parameters and cookie values are
/// replaced by `<redacted>`, as are secret-looking members of JSON and form request bodies.
/// Response bodies are kept as they are, so replay decodes the same values; set
/// `redactsResponseBodies` when they carry secrets (a login's tokens).
///
/// ```swift
/// let recorder = HARRecorder(.urlSession())
/// let movies = Client.movies(environment: .staging, apiKey: key, transport: recorder)
/// _ = try await movies.send(MovieAPI.popular(page: 1))
/// try recorder.archive.write(to: fixtures.appending(path: "popular.har"))
/// ```
public final class HARRecorder: Transport {
    /// The transport that reaches the network.
    public let wrapped: any Transport
    private let redaction: Redaction
    private let redactsResponseBodies: Bool
    private let entries = LockedState<[HARArchive.Entry]>([])

    /// The content codings the wrapped transport decodes.
    public var contentCodings: Set<ContentCoding> { wrapped.contentCodings }

    /// Creates a recorder around a transport.
    /// - Parameters:
    ///   - wrapped: The real transport.
    ///   - credentialFields: The header fields and query parameters to hide, besides the
    ///     defaults; the client's `Configuration.credentialFields` when it has more.
    ///   - redactsResponseBodies: Whether secret-looking members of JSON and form response bodies
    ///     are hidden too; `false` by default, so replay decodes what the server sent.
    public init(_ wrapped: any Transport, credentialFields: CredentialFields = .default, redactsResponseBodies: Bool = false) {
        self.wrapped = wrapped
        self.redaction = Redaction.standard.hiding(credentialFields)
        self.redactsResponseBodies = redactsResponseBodies
    }

    /// The exchanges recorded so far.
    public var archive: HARArchive {
        HARArchive(entries: entries.withLock { $0 })
    }

    /// Sends the request through the wrapped transport and records the exchange.
    /// - Parameter request: The request.
    /// - Returns: The wrapped transport's response, its body delivered as the request asks.
    /// - Throws: The wrapped transport's errors (a failed exchange is not recorded).
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var requestBody: Data?
        if let body = request.body { requestBody = try await Data(collecting: body, upTo: .max) }
        var inner = request
        inner.payload = requestBody.map { .bytes($0) }
        // Collected whole, so the archive holds the body, then delivered as the caller asked.
        inner.delivery = .collected(upTo: request.delivery.collectsAll ? request.delivery.limit : .max)
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let answer = try await wrapped.send(inner)
        var responseBody = Data()
        if let body = answer.body { responseBody = try await Data(collecting: body, upTo: .max) }
        let elapsed = start.duration(to: clock.now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let entry = HAREntryWriter(redaction: redaction, redactsResponseBodies: redactsResponseBodies)
            .entry(request: request, body: requestBody, response: answer, responseBody: responseBody, started: started, milliseconds: milliseconds)
        entries.withLock { $0.append(entry) }
        var delivered = try await request.delivering(answer.response, body: responseBody.isEmpty ? nil : HTTPBody(responseBody))
        delivered.attempts = answer.attempts
        delivered.httpVersion = answer.httpVersion
        delivered.timings = answer.timings
        return delivered
    }
}
