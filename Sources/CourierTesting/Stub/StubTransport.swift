import Courier
import Foundation

/// A `Transport` that answers from what a test registered, and records every request.
///
/// The stub stands where the network would: a `Client` over it runs its whole pipeline
/// (common parameters, every middleware such as token refresh, retry and rate limits, status
/// mapping and decoding), so a test exercises the app's real client configuration.
///
/// ```swift
/// let stub = StubTransport()
/// stub.answer(.get("movie/popular"), with: .json(page))
/// stub.answer(.get("movie/{id}/videos"), with: .status(.serviceUnavailable), .json(videos))   // 503, then 200
/// let client = Client.movies(environment: .production, apiKey: "k", transport: stub)
/// ```
///
/// The most recent registration that matches a request answers it. A sequence of answers is
/// served in order and its last answer repeats. A request nothing matches fails with
/// `CourierError.Kind.transportFailed` and a message listing the registrations.
/// Delays, latency and bandwidth pass on the stub's clock: give it and the client the same
/// ``ManualClock`` to test them without waiting.
public final class StubTransport: Transport {
    private enum Answers: Sendable {
        case sequence([StubResponse])
        case computed(@Sendable (RecordedRequest) -> StubResponse)
    }

    private struct Registration: Sendable {
        var matcher: RequestMatcher
        var answers: Answers
        var served = 0
    }

    private struct State: Sendable {
        var registrations: [Registration] = []
        var requests: [RecordedRequest] = []
    }

    private let state = LockedState(State())
    /// The scripted WebSockets (``answerWebSocket(_:with:)``), latest last.
    let webSocketRoutes = LockedState<[(matcher: RequestMatcher, sockets: [StubWebSocket])]>([])
    private let sleep: @Sendable (Duration) async throws -> Void
    /// Whether the stub has a WebSocket side (``webSockets``).
    let answersWebSockets: Bool

    /// The stub decodes no content codings: its bodies are sent as they are.
    public let contentCodings: Set<ContentCoding> = []

    /// Creates a stub with no answers.
    ///
    /// By default the stub also opens WebSockets: those registered with
    /// ``answerWebSocket(_:with:)``, and a 404 refusal for any other handshake. Without a
    /// WebSocket side it stands for a transport that has none (``webSockets`` is `nil`): a
    /// client refuses every WebSocket before any traffic, with
    /// `CourierError.Kind.transportFailed`, and ``answerWebSocket(_:with:)`` is never consulted.
    ///
    /// ```swift
    /// let stub = StubTransport(answersWebSockets: false)
    /// ```
    /// - Parameters:
    ///   - clock: What delays, latency and bandwidth are measured on; `ContinuousClock` by
    ///     default, a ``ManualClock`` in tests that move time themselves.
    ///   - answersWebSockets: Whether the stub has a WebSocket side; `true` by default.
    public init(clock: some Clock<Duration> = ContinuousClock(), answersWebSockets: Bool = true) {
        sleep = { duration in try await clock.sleep(for: duration) }
        self.answersWebSockets = answersWebSockets
    }

    /// Answers requests `matcher` describes with `responses`, in order; the last one repeats.
    /// - Parameters:
    ///   - matcher: Which requests.
    ///   - responses: The answers: `.status(.serviceUnavailable), .json(value)` answers 503 once,
    ///     then 200.
    public func answer(_ matcher: RequestMatcher, with responses: StubResponse...) {
        answer(matcher, with: responses)
    }

    /// Answers requests `matcher` describes with `responses`, in order; the last one repeats.
    /// - Parameters:
    ///   - matcher: Which requests.
    ///   - responses: The answers; an empty list registers nothing.
    public func answer(_ matcher: RequestMatcher, with responses: [StubResponse]) {
        guard !responses.isEmpty else { return }
        state.withLock { $0.registrations.append(Registration(matcher: matcher, answers: .sequence(responses))) }
    }

    /// Answers requests `matcher` describes with what `respond` makes of each.
    ///
    /// ```swift
    /// stub.answer(.get("movie/popular")) { request in
    ///     .json(page(number: Int(request.queryValue("page") ?? "1") ?? 1))
    /// }
    /// ```
    /// - Parameters:
    ///   - matcher: Which requests.
    ///   - respond: Makes the answer; it may read the stub, e.g. how many requests came before.
    public func answer(_ matcher: RequestMatcher, using respond: @escaping @Sendable (RecordedRequest) -> StubResponse) {
        state.withLock { $0.registrations.append(Registration(matcher: matcher, answers: .computed(respond))) }
    }

    /// Forgets every registration and recorded request.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Every request received so far, matched or not, in the order they arrived.
    public var requests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// The requests received so far that `matcher` describes.
    /// - Parameter matcher: Which requests.
    /// - Returns: Them, in the order they arrived.
    public func requests(matching matcher: RequestMatcher) -> [RecordedRequest] {
        requests.filter(matcher.matches)
    }

    /// Records the request, then answers it as registered.
    /// - Parameter request: The request, as the client's pipeline left it.
    /// - Returns: The registered response, its body delivered as the request asks.
    /// - Throws: The registered transport failure; `CourierError.Kind.transportFailed`
    ///   when nothing matches.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        // The registered latency is a sleep that only task cancellation ends.
        try await request.interruption.run { try await self.answer(request) }
    }

    /// Records `request` and answers it as registered.
    private func answer(_ request: TransportRequest) async throws -> TransportResponse {
        try await request.delivered { head, body, origin, name in
            var bytes: Data?
            if let body { bytes = try await Data(collecting: body, upTo: .max) }
            let recorded = RecordedRequest(
                method: head.method,
                origin: origin,
                target: head.path ?? "/",
                headerFields: head.headerFields,
                body: bytes,
                name: name
            )
            let answer = try self.answer(for: recorded)
            if answer.latency > .zero { try await sleep(answer.latency) }
            try await answer.gate?.wait()
            return try self.response(answer)
        }
    }

    /// Records a request answered elsewhere (a WebSocket handshake).
    func record(_ request: RecordedRequest) {
        state.withLock { $0.requests.append(request) }
    }

    /// Records `request` and picks its answer.
    private func answer(for request: RecordedRequest) throws -> StubResponse {
        let picked = state.withLock { state -> Answers? in
            state.requests.append(request)
            guard let index = state.registrations.lastIndex(where: { $0.matcher.matches(request) }) else { return nil }
            defer { state.registrations[index].served += 1 }
            switch state.registrations[index].answers {
            case .sequence(let responses):
                return .sequence([responses[min(state.registrations[index].served, responses.count - 1)]])
            case .computed(let respond):
                return .computed(respond)
            }
        }
        switch picked {
        case .sequence(let responses): return responses[0]
        // Outside the lock, so that it may read the stub (its requests so far).
        case .computed(let respond): return respond(request)
        case nil:
            // The request is described with its credentials hidden, so every other query value
            // can show, as in the list of registrations.
            var error = CourierError(.transportFailed, message: unmatchedMessage(request))
            error.messageIsRedacted = true
            throw error
        }
    }

    private func unmatchedMessage(_ request: RecordedRequest) -> String {
        let registered = state.withLock { $0.registrations.map(\.matcher.description) }
        let list = registered.isEmpty ? "  (nothing)" : registered.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
        return "No stub matches this request:\n\(request.description)\nRegistered:\n\(list)"
    }

    private func response(_ answer: StubResponse) throws -> (HTTPResponse, HTTPBody?) {
        switch answer.outcome {
        case .failure(let failure):
            throw failure.error
        case .invalid(let message):
            throw CourierError(.transportFailed, message: message)
        case .response(let status, var fields, let bytes):
            // A body kept open has no length yet, as a stream the server is still sending.
            if fields[.contentLength] == nil, answer.bodyGate == nil { fields[.contentLength] = String(bytes.count) }
            let head = HTTPResponse(status: status, headerFields: fields)
            if let gate = answer.bodyGate {
                return (head, HTTPBody(pacedBody(answer, bytes, keptOpenBy: gate), length: .unknown, iterationBehavior: .single))
            }
            guard !bytes.isEmpty else { return (head, nil) }
            guard answer.chunkSize != nil || answer.bytesPerSecond != nil else { return (head, HTTPBody(bytes)) }
            return (head, HTTPBody(pacedBody(answer, bytes), length: .known(Int64(bytes.count)), iterationBehavior: .single))
        }
    }

    /// `bytes` in the chunks and at the bandwidth `answer` asks for; whole when it asks for neither.
    private func pacedBody(_ answer: StubResponse, _ bytes: Data, keptOpenBy gate: StubGate? = nil) -> PacedBody {
        let rate = answer.bytesPerSecond
        let size = answer.chunkSize ?? rate.map { max(1, $0 / 10) } ?? max(1, bytes.count)
        let perChunk = rate.map { Duration.seconds(Double(size) / Double($0)) } ?? .zero
        return PacedBody(bytes: bytes, chunkSize: size, perChunk: perChunk, sleep: sleep, keptOpenBy: gate)
    }
}
