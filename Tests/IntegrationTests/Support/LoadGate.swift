import Testing

/// Keeps the soak from running while tests that measure time run: the machine has two cores, and
/// 256 requests in flight would make a 1-second timeout or a paced burst measure the soak instead.
/// Timing tests share the gate with each other; the soak holds it alone.
actor LoadGate {
    static let shared = LoadGate()

    private var readers = 0
    private var writing = false
    private var waitingWriters: [CheckedContinuation<Void, Never>] = []
    private var waitingReaders: [CheckedContinuation<Void, Never>] = []

    func acquireShared() async {
        guard writing || !waitingWriters.isEmpty else {
            readers += 1
            return
        }
        await withCheckedContinuation { waitingReaders.append($0) }
    }

    func releaseShared() {
        readers -= 1
        if readers == 0, !waitingWriters.isEmpty {
            writing = true
            waitingWriters.removeFirst().resume()
        }
    }

    func acquireExclusive() async {
        guard writing || readers > 0 else {
            writing = true
            return
        }
        await withCheckedContinuation { waitingWriters.append($0) }
    }

    func releaseExclusive() {
        if !waitingWriters.isEmpty {
            waitingWriters.removeFirst().resume()
            return
        }
        writing = false
        readers += waitingReaders.count
        for reader in waitingReaders { reader.resume() }
        waitingReaders.removeAll()
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
        await acquire()
        do {
            try await function()
        } catch {
            await release()
            throw error
        }
        await release()
    }

    private func acquire() async {
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
