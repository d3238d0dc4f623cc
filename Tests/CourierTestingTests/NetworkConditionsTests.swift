import Courier
import CourierTesting
import Foundation
import TestSupport
import Testing

@Suite("Delays, timeouts, back-off, rate limits and bandwidth pass on a manual clock")
struct NetworkConditionsTests {
    @Test("a 30-second timeout fires when the clock reaches 30 seconds, not before")
    func timeout() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.get("slow"), with: .status(.ok).delayed(by: .seconds(45)))
        let client = Client.accounts(stub) {
            $0.clock = clock
            $0.timeout = .seconds(30)
        }
        let done = LockedBox(false)
        let call = Task {
            defer { done.mutate { $0 = true } }
            try await client.send(Request<Void>(.get, "slow"))
        }
        #expect(await clock.run(until: { stub.requests.count == 1 }))
        await clock.advance(by: .seconds(29))
        #expect(!done.value, "still waiting after 29 seconds")
        let error = await #expect(throws: CourierError.self) { try await clock.run(call) }
        #expect(error?.kind == .timedOut)
        #expect(clock.now.offset >= .seconds(30))
        #expect(clock.now.offset < .seconds(45), "the timeout, not the answer, ended the call")
    }

    @Test("latency delays the answer by exactly that much of the clock")
    func latency() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.get("accounts/1"), with: .json(Account(id: 1, name: "Ada")).delayed(by: .seconds(2)))
        let client = Client.accounts(stub) { $0.clock = clock }
        let done = LockedBox(false)
        let call = Task {
            defer { done.mutate { $0 = true } }
            return try await client.send(AccountAPI.account(id: 1))
        }
        #expect(await clock.run(until: { stub.requests.count == 1 }))
        await clock.advance(by: .milliseconds(1999))
        #expect(!done.value, "the answer is not there before two seconds")
        #expect(try await clock.run(call).name == "Ada")
        #expect(clock.now.offset >= .seconds(2))
    }

    @Test("retry back-off waits on the client's clock: 503, 503, then 200")
    func retryBackoff() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.get("accounts/1"), with: .status(.serviceUnavailable), .status(.serviceUnavailable), .json(Account(id: 1, name: "Ada")))
        let client = Client.accounts(stub) {
            $0.clock = clock
            $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 3, backoff: Backoff(base: .seconds(10), maximum: .seconds(60))))]
        }
        let call = Task { try await client.send(AccountAPI.account(id: 1)) }
        #expect(await clock.run(until: { stub.requests.count == 3 }))
        #expect(try await call.value.name == "Ada")
        #expect(clock.now.offset > .zero, "the retries waited on the manual clock")
    }

    @Test("a Retry-After of 45 seconds is waited on the clock")
    func retryAfter() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.get("accounts/1"), with: .status(.serviceUnavailable).header(.retryAfter, "45"), .json(Account(id: 1, name: "Ada")))
        let client = Client.accounts(stub) {
            $0.clock = clock
            $0.middleware = [RetryMiddleware(.exponential(maxAttempts: 2))]
        }
        let call = Task { try await client.send(AccountAPI.account(id: 1)) }
        #expect(await clock.run(until: { stub.requests.count == 2 }))
        #expect(try await call.value.name == "Ada")
        #expect(clock.now.offset >= .seconds(45))
    }

    @Test("a rate limit's wait passes on the clock")
    func rateLimit() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.answer(.any, with: .status(.noContent))
        let client = Client.accounts(stub) {
            $0.clock = clock
            $0.middleware = [RateLimitMiddleware(.perHost(1, per: .seconds(3600)))]
        }
        try await client.send(Request<Void>(.get, "first"))
        let second = Task { try await client.send(Request<Void>(.get, "second")) }
        #expect(await clock.run(until: { stub.requests.count == 2 }, limit: .seconds(7200)))
        try await second.value
        #expect(clock.now.offset >= .seconds(3600), "an hour of the clock")
    }

    @Test("bandwidth paces the body, so download progress arrives step by step")
    func bandwidth() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        let video = Data(repeating: 7, count: 1000)
        stub.answer(.get("trailer"), with: .data(video, contentType: "video/mp4").throttled(bytesPerSecond: 100))
        let client = Client.accounts(stub) { $0.clock = clock }
        let destination = FileManager.default.temporaryDirectory.appending(path: "courier-testing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let reports = Reports()
        let call = Task { try await client.download(Request<Data>(.get, "trailer"), to: destination) { reports.append($0) } }
        #expect(await clock.run(until: { reports.completed == 1000 }))
        _ = try await call.value
        let steps = reports.all.filter { $0.direction == .download }.map(\.completedBytes)
        #expect(steps.count >= 10, "one report per tenth of a second: \(steps)")
        #expect(steps.last == 1000)
        #expect(reports.all.last?.totalBytes == 1000)
        #expect(clock.now.offset >= .seconds(10), "1000 bytes at 100 bytes per second")
        #expect(try Data(contentsOf: destination) == video)
    }
}

/// Progress reports, appended from the transfer, read by the test.
struct Reports: Sendable {
    private let reports = LockedBox<[TransferProgress]>([])

    func append(_ report: TransferProgress) { reports.mutate { $0.append(report) } }
    var all: [TransferProgress] { reports.value }
    var completed: Int64 { all.last(where: { $0.direction == .download })?.completedBytes ?? 0 }
}
