import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands a data task's response over as soon as its head arrives, the body as a stream of the
/// pieces URLSession delivers. Whoever reads the body decides how much to keep (the client stops
/// at its size limit); when the reader stops, the task is stopped. What the reader has not reached
/// yet waits in a ``SpooledBody``: a few MiB in memory, the rest on disk.
// @unchecked: mutable state is only touched under `state`'s lock.
final class StreamingTaskHandler: DataTaskHandler, @unchecked Sendable {
    typealias Output = (HTTPResponse, HTTPBody?)

    private struct State {
        var pending = Pending<Output>()
        var body: SpooledBody?
        var finished = false
    }

    private let limits: SpooledBody.Limits
    private let state = LockedState(State())

    /// Creates the handler.
    /// - Parameter limits: How much of the body waits in memory for its reader.
    init(limits: SpooledBody.Limits = SpooledBody.Limits()) {
        self.limits = limits
    }

    func start(_ continuation: CheckedContinuation<Output, any Error>, cancelTask: @escaping @Sendable () -> Void) -> Bool {
        state.wait(at: \.pending, continuation, cancelTask: cancelTask)
    }

    func cancel() {
        if !settle(.failure(CancellationError())) { finishBody(throwing: CancellationError()) }
    }

    func received(_ response: URLResponse) {
        let head: HTTPResponse
        do {
            head = try SessionTransport.response(from: response)
        } catch {
            if settle(.failure(error)) { state.withLock { $0.pending.cancelTask }?() }
            return
        }
        let spooled = state.withLock { state in
            let spooled = SpooledBody(limits: limits, stopTask: state.pending.cancelTask ?? {})
            state.body = spooled
            return spooled
        }
        let encoded = head.headerFields.contains(.contentEncoding)
        let length = encoded ? nil : ContentLength.bodyLength(of: head)
        let body = HTTPBody(
            ReaderStoppingChunks(body: spooled),
            length: length.map(HTTPBody.Length.known) ?? .unknown,
            iterationBehavior: .single
        )
        if !settle(.success((head, body))) { spooled.finish(throwing: nil) }
    }

    func received(_ data: Data) {
        let body = state.withLock { $0.finished ? nil : $0.body }
        body?.append(data)
    }

    func completed(_ response: URLResponse?, error: (any Error)?) {
        if let error {
            guard !settle(.failure(error)) else { return }
            let head = response.flatMap { try? SessionTransport.response(from: $0) }
            finishBody(throwing: head.map { SessionTransport.bodyFailure(after: error, head: $0) } ?? CourierError.incompleteBody(after: error))
            return
        }
        if state.withLock({ $0.body == nil }) {
            // The head never came through the delegate (a 401 answered at its challenge).
            guard let response else {
                _ = settle(.failure(CourierError(.invalidResponse, message: "The server sent no response.")))
                return
            }
            received(response)
        }
        finishBody(throwing: nil)
    }

    /// Settles the wait for the head. Returns whether this call settled it.
    private func settle(_ outcome: Result<Output, any Error>) -> Bool {
        let (settled, resumption) = state.withLock { $0.pending.settle(outcome) }
        if let (continuation, outcome) = resumption { continuation.resume(with: outcome) }
        return settled
    }

    private func finishBody(throwing error: (any Error)?) {
        let body = state.withLock { state -> SpooledBody? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.body
        }
        body?.finish(throwing: error)
    }
}
