import CourierTesting
import TestSupport
import Testing

@Suite("The manual clock moves only when the test moves it")
struct ManualClockTests {
    @Test("sleepers wake in deadline order as the clock passes their deadlines, and not before")
    func wakesInOrder() async throws {
        let clock = ManualClock()
        let woken = LockedBox<[Int]>([])
        let sleepers = [3, 1, 2].map { seconds in
            Task {
                try await clock.sleep(for: .seconds(seconds))
                woken.append(seconds)
            }
        }
        #expect(await clock.run(until: { clock.sleeperCount == 3 }))
        await clock.advance(by: .milliseconds(999))
        #expect(woken.all.isEmpty)
        await clock.advance(by: .seconds(2))
        for sleeper in sleepers.dropFirst() { try await sleeper.value }  // the 1 s and 2 s sleepers
        #expect(woken.all.prefix(2) == [1, 2])
        #expect(clock.now.offset == .milliseconds(2999))
        await clock.advance(by: .seconds(1))
        try await sleepers[0].value
        #expect(woken.all == [1, 2, 3])
    }

    @Test("a cancelled sleeper throws CancellationError at once")
    func cancellation() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        #expect(await clock.run(until: { clock.sleeperCount == 1 }))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now.offset == .zero)
    }

    @Test("run(_:) moves the clock until a task ends and returns its value")
    func runTask() async throws {
        let clock = ManualClock()
        let task = Task {
            try await clock.sleep(for: .seconds(5))
            try await clock.sleep(for: .seconds(7))
            return 42
        }
        #expect(try await clock.run(task) == 42)
        #expect(clock.now.offset == .seconds(12))
    }

    @Test("run(_:) cancels a task still running at its limit instead of hanging")
    func runTaskLimit() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(7200)) }
        await #expect(throws: CancellationError.self) { try await clock.run(task, limit: .seconds(60)) }
    }

    @Test("sleeping until a deadline already passed returns at once")
    func pastDeadline() async throws {
        let clock = ManualClock()
        await clock.advance(by: .seconds(5))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1)))
        #expect(clock.sleeperCount == 0)
    }
}
