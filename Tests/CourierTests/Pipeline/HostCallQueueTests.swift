@testable import Courier
import TestSupport
import Testing

/// With a limit per host, calls beyond it wait in their host's line: the most urgent first, first
/// come first within one priority; running calls keep their slots; cancelled waiters leave at once.
@Suite("Calls per host wait their turn by priority", .timeLimit(.minutes(1)))
struct HostCallQueueTests {
    typealias Ticket = HostCallQueue.Ticket

    /// The positions in `tickets` of those that hold a slot.
    func running(_ tickets: [Ticket], in queue: HostCallQueue) -> [Int] {
        tickets.indices.filter { queue.status(of: tickets[$0]) == .running }
    }

    /// Whether a task is suspended in `wait` for `ticket`, looking until one is.
    func suspended(_ ticket: Ticket, in queue: HostCallQueue) async -> Bool {
        await eventually { queue.status(of: ticket) == .waiting(taskSuspended: true) }
    }

    @Test("with a limit of 2, a user-initiated call queued behind 8 waiting background calls starts at the next free slot")
    func userInitiatedOvertakesWaitingBackground() {
        let queue = HostCallQueue(limit: 2)
        let background = (0..<10).map { _ in queue.admit(host: "api", priority: .background) }
        #expect(running(background, in: queue) == [0, 1])
        #expect(queue.counts(for: "api") == (running: 2, waiting: 8))

        let user = queue.admit(host: "api", priority: .userInitiated)
        #expect(queue.status(of: user) == .waiting(taskSuspended: false), "no slot is free")

        queue.release(background[0])
        #expect(queue.status(of: user) == .running)
        #expect(running(background, in: queue) == [1], "the waiting background calls still wait")

        // From now on each release starts the next background call, in the order they came.
        queue.release(user)
        #expect(running(background, in: queue) == [1, 2])
        for next in 3...9 {
            queue.release(background[next - 2])
            #expect(running(background, in: queue) == [next - 1, next])
        }
        queue.release(background[8])
        queue.release(background[9])
        #expect(queue.hostCount == 0)
    }

    @Test("waiting calls start most urgent first, first come first within one priority, and a running call keeps its slot")
    func priorityThenArrival() {
        let queue = HostCallQueue(limit: 1)
        let first = queue.admit(host: "api", priority: .prefetch)
        let prefetch = queue.admit(host: "api", priority: .prefetch)
        let background = queue.admit(host: "api", priority: .background)
        let user1 = queue.admit(host: "api", priority: .userInitiated)
        let user2 = queue.admit(host: "api", priority: .userInitiated)
        #expect(queue.status(of: first) == .running, "a prefetch already running is not pre-empted")

        // Ending the running call each time starts exactly one of the waiting ones.
        let waiting = [prefetch, background, user1, user2]
        var started: [Ticket] = []
        var current = first
        for _ in waiting {
            queue.release(current)
            let now = running(waiting, in: queue)
            #expect(now.count == 1)
            guard let next = now.first.map({ waiting[$0] }) else { break }
            started.append(next)
            current = next
        }
        #expect(started.map(\.priority) == [.userInitiated, .userInitiated, .background, .prefetch])
        #expect(started.first === user1, "user1 came before user2")
        queue.release(current)
        #expect(queue.hostCount == 0)
    }

    @Test("a new background call waits while a user-initiated call waits, and starts after it")
    func newBackgroundWaitsBehindWaitingUserInitiated() {
        let queue = HostCallQueue(limit: 1)
        let running = queue.admit(host: "api", priority: .background)
        let user = queue.admit(host: "api", priority: .userInitiated)
        let late = queue.admit(host: "api", priority: .background)
        #expect(queue.counts(for: "api") == (running: 1, waiting: 2))

        queue.release(running)
        #expect(queue.status(of: user) == .running)
        #expect(queue.status(of: late) == .waiting(taskSuspended: false))

        queue.release(user)
        #expect(queue.status(of: late) == .running)
        queue.release(late)
    }

    @Test("a call admitted at once does not wait; a waiting one resumes when a slot frees")
    func waitResumesOnRelease() async throws {
        let queue = HostCallQueue(limit: 1)
        let first = queue.admit(host: "api", priority: .userInitiated)
        try await queue.wait(first)

        let second = queue.admit(host: "api", priority: .userInitiated)
        let waiting = Task { try await queue.wait(second) }
        #expect(await suspended(second, in: queue))
        queue.release(first)
        try await waiting.value
        #expect(queue.status(of: second) == .running)
        queue.release(second)
        #expect(queue.hostCount == 0)
    }

    @Test("a waiting task that is cancelled leaves the line at once, and its wait throws CancellationError")
    func cancelledTaskLeavesAtOnce() async {
        let queue = HostCallQueue(limit: 1)
        let running = queue.admit(host: "api", priority: .userInitiated)
        let ticket = queue.admit(host: "api", priority: .userInitiated)
        let waiting = Task { try await queue.wait(ticket) }
        #expect(await suspended(ticket, in: queue))

        waiting.cancel()
        #expect(queue.counts(for: "api") == (running: 1, waiting: 0))
        await #expect(throws: CancellationError.self) { try await waiting.value }

        queue.release(ticket)
        queue.release(running)
        #expect(queue.hostCount == 0)
    }

    @Test("a task cancelled before it waits throws at once and leaves the line")
    func taskCancelledBeforeWaiting() async {
        let queue = HostCallQueue(limit: 1)
        let running = queue.admit(host: "api", priority: .userInitiated)
        let ticket = queue.admit(host: "api", priority: .userInitiated)
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await queue.wait(ticket)
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(queue.counts(for: "api") == (running: 1, waiting: 0))
        queue.release(running)
    }

    @Test("cancelling a waiting ticket from elsewhere ends its wait; cancelling a running one does nothing")
    func ticketCancelledFromElsewhere() async {
        let queue = HostCallQueue(limit: 1)
        let running = queue.admit(host: "api", priority: .userInitiated)
        let ticket = queue.admit(host: "api", priority: .userInitiated)
        let waiting = Task { try await queue.wait(ticket) }
        #expect(await suspended(ticket, in: queue))

        await Task.detached { ticket.cancel() }.value
        #expect(queue.counts(for: "api") == (running: 1, waiting: 0))
        await #expect(throws: CancellationError.self) { try await waiting.value }

        let early = queue.admit(host: "api", priority: .userInitiated)
        early.cancel()
        await #expect(throws: CancellationError.self, "cancelled before its wait began") { try await queue.wait(early) }

        running.cancel()
        #expect(queue.status(of: running) == .running)
        queue.release(running)
        #expect(queue.hostCount == 0)
    }

    @Test("releasing a ticket that never got a slot, or releasing twice, frees nothing more")
    func releaseIsIdempotent() {
        let queue = HostCallQueue(limit: 1)
        let a = queue.admit(host: "api", priority: .userInitiated)
        let b = queue.admit(host: "api", priority: .userInitiated)
        let c = queue.admit(host: "api", priority: .userInitiated)

        queue.release(c)
        queue.release(c)
        #expect(queue.status(of: c) == .gone)
        #expect(queue.counts(for: "api") == (running: 1, waiting: 1))

        queue.release(a)
        queue.release(a)
        #expect(queue.status(of: b) == .running)
        let d = queue.admit(host: "api", priority: .userInitiated)
        #expect(queue.status(of: d) == .waiting(taskSuspended: false), "releasing a twice freed one slot, not two")

        queue.release(b)
        queue.release(d)
        #expect(queue.hostCount == 0)
    }

    @Test("hosts have their own slots and lines")
    func hostsAreIndependent() {
        let queue = HostCallQueue(limit: 1)
        let x1 = queue.admit(host: "x.example.com", priority: .prefetch)
        let x2 = queue.admit(host: "x.example.com", priority: .userInitiated)
        let y = queue.admit(host: "y.example.com", priority: .prefetch)
        #expect(queue.status(of: y) == .running)
        #expect(queue.status(of: x2) == .waiting(taskSuspended: false))

        queue.release(y)
        #expect(queue.status(of: x2) == .waiting(taskSuspended: false), "y's slot is not x's")
        #expect(queue.hostCount == 1, "nothing is kept for y")

        queue.release(x1)
        queue.release(x2)
        #expect(queue.hostCount == 0)
        #expect(queue.counts(for: "x.example.com") == (running: 0, waiting: 0))
    }

    @Test("with 400 calls cancelled at any moment, every wait ends once and the queue ends empty")
    func concurrentCancellation() async {
        let queue = HostCallQueue(limit: 3)
        let tickets = (0..<400).map { index in
            queue.admit(host: "host\(index % 3)", priority: RequestPriority.allCases[index % 3])
        }
        let ended = await withTaskGroup(of: Int.self) { group in
            for ticket in tickets {
                group.addTask {
                    defer { queue.release(ticket) }
                    do {
                        try await queue.wait(ticket)
                        await Task.yield()
                    } catch {}
                    return 1
                }
            }
            group.addTask {
                for ticket in tickets.reversed() where ticket.priority == .prefetch {
                    ticket.cancel()
                    await Task.yield()
                }
                return 0
            }
            return await group.reduce(0, +)
        }
        #expect(ended == 400)
        #expect(queue.hostCount == 0)
    }
}
