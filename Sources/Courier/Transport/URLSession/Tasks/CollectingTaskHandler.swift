import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a data task's whole body into memory, up to a limit: past it the task is stopped and the
/// call fails with ``CourierError/Kind/responseTooLarge``, so memory never holds more than the
/// limit whatever the server sends (an endless body, a compression bomb: URLSession hands over
/// decoded bytes).
// @unchecked: mutable state is only touched under `state`'s lock.
final class CollectingTaskHandler: DataTaskHandler, @unchecked Sendable {
    typealias Output = (HTTPResponse, HTTPBody.ByteChunk, TaskObservation)

    private struct State {
        var pending = Pending<Output>()
        var response: HTTPResponse?
        var bytes: [UInt8] = []
        var observation = TaskObservation()
    }

    private let limit: Int
    private let state = LockedState(State())

    init(limit: Int) {
        self.limit = limit
    }

    func start(_ continuation: CheckedContinuation<Output, any Error>, cancelTask: @escaping @Sendable () -> Void) -> Bool {
        state.wait(at: \.pending, continuation, cancelTask: cancelTask)
    }

    func cancel() {
        settle(.failure(CancellationError()), stoppingTask: false)
    }

    func received(_ response: URLResponse) {
        let now = ContinuousClock.now
        do {
            let head = try SessionTransport.response(from: response)
            let length = ContentLength.bodyLength(of: head)
            // An encoded body's length is not its decoded length; only a plain one is checked early.
            if !head.headerFields.contains(.contentEncoding), let length, length > limit {
                settle(.failure(CourierError.bodyTooLarge(length: length, limit: limit)), stoppingTask: true)
                return
            }
            state.withLock { state in
                state.response = head
                state.observation.firstByte = now
                if let length, length <= limit, !head.headerFields.contains(.contentEncoding) {
                    state.bytes.reserveCapacity(Int(length))
                }
            }
        } catch {
            settle(.failure(error), stoppingTask: true)
        }
    }

    func received(_ data: Data) {
        let fits = state.withLock { state -> Bool in
            guard !state.pending.isSettled else { return true }
            guard state.bytes.count + data.count <= limit else { return false }
            state.bytes.append(contentsOf: data)
            return true
        }
        if !fits { settle(.failure(CourierError.bodyTooLarge(length: nil, limit: limit)), stoppingTask: true) }
    }

    func collected(_ timeline: TransactionTimeline) {
        state.withLock { $0.observation.transaction = timeline }
    }

    func completed(_ response: URLResponse?, error: (any Error)?) {
        let now = ContinuousClock.now
        if let error {
            let head = state.withLock { $0.response }
            settle(.failure(head.map { SessionTransport.bodyFailure(after: error, head: $0) } ?? error), stoppingTask: false)
            return
        }
        let outcome = state.withLock { state -> Result<Output, any Error> in
            state.observation.end = now
            if let head = state.response { return .success((head, state.bytes[...], state.observation)) }
            state.observation.firstByte = now
            return Result { (try SessionTransport.response(from: response), state.bytes[...], state.observation) }
        }
        settle(outcome, stoppingTask: false)
    }

    private func settle(_ outcome: Result<Output, any Error>, stoppingTask: Bool) {
        let (resumption, cancelTask) = state.withLock { state in
            (state.pending.settle(outcome), state.pending.cancelTask)
        }
        if let (continuation, outcome) = resumption.resume { continuation.resume(with: outcome) }
        if stoppingTask { cancelTask?() }
        // The bytes belong to the caller now, or to nobody.
        state.withLock { $0.bytes = [] }
    }
}
