import Testing

/// Keeps the soak from running while tests that measure time run: the machine has two cores, and
/// 256 requests in flight would make a 1-second timeout or a paced burst measure the soak instead.
/// Timing tests share the gate with each other; the soak holds it alone.
actor LoadGate {
    static let shared = LoadGate()

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private var readers = 0
    private var writing = false
    private var nextID: UInt64 = 0
    private var waitingWriters: [Waiter] = []
    private var waitingReaders: [Waiter] = []

    /// Takes the gate beside other timing-sensitive tests.
    /// - Returns: `false` when the task was cancelled (its time limit passed) while it waited:
    ///   it holds nothing then.
    func acquireShared() async -> Bool {
        guard writing || !waitingWriters.isEmpty else {
            readers += 1
            return true
        }
        return await wait(exclusive: false)
    }

    func releaseShared() {
        readers -= 1
        if readers == 0, !waitingWriters.isEmpty {
            writing = true
            waitingWriters.removeFirst().continuation.resume(returning: true)
        }
    }

    /// Takes the gate alone.
    /// - Returns: `false` when the task was cancelled while it waited: it holds nothing then.
    func acquireExclusive() async -> Bool {
        guard writing || readers > 0 else {
            writing = true
            return true
        }
        return await wait(exclusive: true)
    }

    func releaseExclusive() {
        if !waitingWriters.isEmpty {
            waitingWriters.removeFirst().continuation.resume(returning: true)
            return
        }
        writing = false
        readers += waitingReaders.count
        for reader in waitingReaders { reader.continuation.resume(returning: true) }
        waitingReaders.removeAll()
    }

    /// Queues the caller until the gate is handed to it, or until its task is cancelled. The
    /// waiter is queued before the actor runs anything else, so a cancellation's ``leave(_:)``
    /// always finds it queued or already handed the gate.
    private func wait(exclusive: Bool) async -> Bool {
        nextID += 1
        let id = nextID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = Waiter(id: id, continuation: continuation)
                if exclusive { waitingWriters.append(waiter) } else { waitingReaders.append(waiter) }
            }
        } onCancel: {
            Task { await self.leave(id) }
        }
    }

    /// Takes a cancelled waiter out of the queue; a waiter already handed the gate keeps it, and
    /// releases it as usual.
    private func leave(_ id: UInt64) {
        if let index = waitingWriters.firstIndex(where: { $0.id == id }) {
            waitingWriters.remove(at: index).continuation.resume(returning: false)
            // Readers held back only by this writer may go now.
            if !writing, waitingWriters.isEmpty, !waitingReaders.isEmpty {
                readers += waitingReaders.count
                for reader in waitingReaders { reader.continuation.resume(returning: true) }
                waitingReaders.removeAll()
            }
        } else if let index = waitingReaders.firstIndex(where: { $0.id == id }) {
            waitingReaders.remove(at: index).continuation.resume(returning: false)
        }
    }
}

/// A trait that runs each test under the ``LoadGate``: `.timingSensitive` for a suite whose tests
/// bound elapsed time, `.heavyLoad` for the soak.
struct LoadGateTrait: SuiteTrait, TestTrait, TestScoping {
    let exclusive: Bool
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // Suites are scoped per test; only test cases take the gate.
        guard testCase != nil else { return try await function() }
        // A test whose time limit passed while it waited runs nothing and ends at once.
        guard await acquire() else { throw CancellationError() }
        do {
            try await function()
        } catch {
            await release()
            throw error
        }
        await release()
    }

    private func acquire() async -> Bool {
        if exclusive { await LoadGate.shared.acquireExclusive() } else { await LoadGate.shared.acquireShared() }
    }

    private func release() async {
        if exclusive { await LoadGate.shared.releaseExclusive() } else { await LoadGate.shared.releaseShared() }
    }
}

extension Trait where Self == LoadGateTrait {
    /// The test bounds elapsed time: never run it beside the soak.
    static var timingSensitive: Self { LoadGateTrait(exclusive: false) }
    /// The test is the soak: run it apart from timing-sensitive tests.
    static var heavyLoad: Self { LoadGateTrait(exclusive: true) }
}
