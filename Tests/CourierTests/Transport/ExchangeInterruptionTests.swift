@testable import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

/// What a transport receives to end an exchange early, without its caller's task being cancelled.
@Suite("An exchange interruption ends the exchange, never the caller's task")
struct ExchangeInterruptionTests {
    @Test("a handler runs once when the interruption fires during the operation, and not after it")
    func handlerDuringOperation() async throws {
        let interruption = ExchangeInterruption.make()
        let calls = LockedBox(0)
        let value = try await interruption.withHandler {
            interruption.interrupt()
            interruption.interrupt()
            return 7
        } onInterrupt: {
            calls.increment()
        }
        #expect(value == 7)
        #expect(calls.value == 1)
        #expect(interruption.isInterrupted)

        let later = ExchangeInterruption.make()
        _ = try await later.withHandler {
            0
        } onInterrupt: {
            calls.increment()
        }
        later.interrupt()
        #expect(calls.value == 1, "a handler is removed when its operation returns")
    }

    @Test("a handler registered after the interruption fired runs at once")
    func handlerAfterInterruption() async throws {
        let interruption = ExchangeInterruption.make()
        interruption.interrupt()
        let calls = LockedBox(0)
        let seen = try await interruption.withHandler {
            calls.value
        } onInterrupt: {
            calls.increment()
        }
        #expect(seen == 1, "the handler ran before the operation started")
    }

    @Test("run gives the work a task the interruption cancels; the caller's task is not cancelled")
    func runCancelsItsTask() async throws {
        let interruption = ExchangeInterruption.make()
        let started = LockedBox(false)
        async let outcome: Result<Void, any Error> = {
            do {
                try await interruption.run {
                    started.mutate { $0 = true }
                    try await Task.sleep(for: .seconds(60))
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }()
        while !started.value { try await Task.sleep(for: .milliseconds(5)) }
        interruption.interrupt()
        guard case .failure(let error) = await outcome else {
            Issue.record("the interrupted work finished")
            return
        }
        #expect(error is CancellationError)
        #expect(!Task.isCancelled)
    }

    @Test("without an interruption, run and withHandler run the work in the caller's task")
    func none() async throws {
        let handlerCalls = LockedBox(0)
        let value = try await ExchangeInterruption.none.withHandler {
            3
        } onInterrupt: {
            handlerCalls.increment()
        }
        #expect(value == 3)
        let fromRun = try await ExchangeInterruption.none.run { 4 }
        #expect(fromRun == 4)
        ExchangeInterruption.none.interrupt()
        #expect(!ExchangeInterruption.none.isInterrupted)
        #expect(handlerCalls.value == 0)
    }

    @Test("an attempt's interruption carries its deadline on the continuous clock, and none on a clock of the client's own")
    func deadline() async throws {
        let registry = InFlightRequests()
        let before = ContinuousClock.now
        let continuous = try await registry.begin().interruptible(deadline: ElapsedClock.continuous.now() + .seconds(30), clock: .continuous, timeoutError: CancellationError()) {
            $0.deadline
        }
        let after = ContinuousClock.now
        let instant = try #require(continuous)
        #expect(instant >= before + .seconds(30))
        #expect(instant <= after + .seconds(30))

        let manual = try await registry.begin().interruptible(deadline: .seconds(30), clock: ElapsedClock(ManualClock()), timeoutError: CancellationError()) {
            $0.deadline
        }
        #expect(manual == nil)
        #expect(ExchangeInterruption.none.deadline == nil)
    }
}
