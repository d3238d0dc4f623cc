import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Hands a data task's response over as soon as its head arrives, the body as a stream of the
/// pieces URLSession delivers. Whoever reads the body decides how much to keep (the client stops
/// at its size limit); when the reader stops, the task is stopped.
// @unchecked: mutable state is only touched under `state`'s lock.
final class StreamingTaskHandler: DataTaskHandler, @unchecked Sendable {
    typealias Output = (HTTPResponse, HTTPBody?)
    private typealias Chunks = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>

    private struct State {
        var pending = Pending<Output>()
        var body: Chunks.Continuation?
        var finished = false
    }

    private let state = LockedState(State())

    func start(_ continuation: CheckedContinuation<Output, any Error>, cancelTask: @escaping @Sendable () -> Void) -> Bool {
        guard let (continuation, outcome) = state.withLock({ $0.pending.wait(continuation, cancelTask: cancelTask) }) else {
            return true
        }
        continuation.resume(with: outcome)
        return false
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
        let (chunks, continuation) = Chunks.makeStream()
        let cancelTask = state.withLock { state in
            state.body = continuation
            return state.pending.cancelTask
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { cancelTask?() }
        }
        let encoded = head.headerFields[.contentEncoding] != nil
        let length = encoded ? nil : ContentLength.value(in: head.headerFields)
        let body = HTTPBody(
            ReaderStoppingChunks(chunks: chunks, stopTask: cancelTask ?? {}),
            length: length.map(HTTPBody.Length.known) ?? .unknown,
            iterationBehavior: .single
        )
        if !settle(.success((head, body))) { continuation.finish() }
    }

    func received(_ data: Data) {
        let body = state.withLock { $0.finished ? nil : $0.body }
        body?.yield(Array(data)[...])
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
        let body = state.withLock { state -> Chunks.Continuation? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.body
        }
        body?.finish(throwing: error)
    }
}
