/// The line a client's calls stand in when it limits how many run at once per host
/// (`Configuration.maximumCallsPerHost`).
///
/// A call takes a ``Ticket`` with ``admit(host:priority:)``, waits for it with ``wait(_:)``, and
/// hands it back with ``release(_:)`` when it ends, however it ends. Each host has its own slots
/// and its own line:
/// - A call is admitted at once when its host has a free slot (then nobody waits for that host:
///   a freed slot goes to the head of the line at once).
/// - Otherwise it waits. Waiting calls are admitted by ``RequestPriority``, most urgent first, and
///   first come, first served within one priority, so a new call never passes a waiting call of
///   the same or a higher priority.
/// - A running call keeps its slot until it is released: nothing is pre-empted.
/// - A waiting call that is cancelled (its task, or ``Ticket/cancel()`` from ``Client/cancelAll()``
///   or a deadline) leaves the line at once.
///
/// The queue keeps state only for hosts with running or waiting calls.
final class HostCallQueue: Sendable {
    /// One call's place in the queue: waiting in its host's line, then holding one of its slots.
    ///
    /// Cancelling a waiting ticket takes it out of the line and ends its ``HostCallQueue/wait(_:)``
    /// with `CancellationError`; cancelling an admitted one does nothing, since running work is
    /// cancelled through its own task.
    final class Ticket: CancellableWork {
        /// Where the ticket stands, for tests and diagnostics.
        enum Status: Equatable, Sendable {
            /// In its host's line; `taskSuspended` once a task waits for it in ``HostCallQueue/wait(_:)``.
            case waiting(taskSuspended: Bool)
            /// Holding one of its host's slots.
            case running
            /// Out of the queue: released, or cancelled before it was admitted.
            case gone
        }

        /// The host whose slots the call competes for.
        let host: String
        /// Where the call goes in its host's line.
        let priority: RequestPriority
        /// Tells this ticket from the others in `queue`.
        fileprivate let id: UInt64
        /// Kept strongly: the queue's state holds ids only, so this makes no cycle.
        fileprivate let queue: HostCallQueue

        fileprivate init(host: String, priority: RequestPriority, id: UInt64, queue: HostCallQueue) {
            self.host = host
            self.priority = priority
            self.id = id
            self.queue = queue
        }

        /// Takes the ticket out of its line if it is still waiting, at once; its wait throws
        /// `CancellationError`. Does nothing once the ticket is admitted or gone.
        func cancel() {
            queue.cancel(self)
        }
    }

    private typealias Continuation = CheckedContinuation<Void, any Error>

    /// A waiting task to resume, outside the lock.
    private struct Wakeup {
        let continuation: Continuation
        /// Whether the ticket was admitted; otherwise it left the line and the wait throws.
        let admitted: Bool

        func resume() {
            if admitted {
                continuation.resume()
            } else {
                continuation.resume(throwing: CancellationError())
            }
        }
    }

    /// A ticket waiting in line.
    private struct Waiter {
        let id: UInt64
        let priority: RequestPriority
        /// The task suspended in ``HostCallQueue/wait(_:)``, once there is one.
        var continuation: Continuation?
    }

    /// One host's slots and line.
    private struct HostCalls {
        /// The admitted tickets: a set, so that releasing one twice frees one slot.
        var running: Set<UInt64> = []
        /// Most urgent first, first come first within one priority. Lines are short (one client's
        /// calls to one host), so a linear scan keeps this simple.
        var waiting: [Waiter] = []

        var isEmpty: Bool { running.isEmpty && waiting.isEmpty }

        /// Puts `waiter` behind every waiter of the same or a higher priority, ahead of the rest.
        mutating func enqueue(_ waiter: Waiter) {
            let position = waiting.lastIndex { $0.priority >= waiter.priority }.map { $0 + 1 } ?? 0
            waiting.insert(waiter, at: position)
        }

        /// Gives the slot `released` held to the head of the line. Only a release frees a slot,
        /// one at a time, so at most one waiter is admitted.
        /// - Returns: The admitted waiter's task, if it is suspended.
        mutating func release(_ released: UInt64, limit: Int) -> Wakeup? {
            guard running.remove(released) != nil, running.count < limit, !waiting.isEmpty else { return nil }
            let next = waiting.removeFirst()
            running.insert(next.id)
            return next.continuation.map { Wakeup(continuation: $0, admitted: true) }
        }

        /// Takes `id` out of the line, if it waits there.
        /// - Returns: Its task, if it is suspended, to end with `CancellationError`.
        mutating func leave(_ id: UInt64) -> Wakeup? {
            guard let position = waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: position).continuation.map { Wakeup(continuation: $0, admitted: false) }
        }
    }

    /// Every decision, made under the lock; the queue resumes the ``Wakeup``s they return after it.
    private struct State {
        let limit: Int
        var nextID: UInt64 = 0
        var hosts: [String: HostCalls] = [:]

        mutating func admit(host: String, priority: RequestPriority) -> UInt64 {
            nextID += 1
            var calls = hosts.removeValue(forKey: host) ?? HostCalls()
            // A slot is never free while someone waits, so a free slot means an empty line.
            if calls.running.count < limit && calls.waiting.isEmpty {
                calls.running.insert(nextID)
            } else {
                calls.enqueue(Waiter(id: nextID, priority: priority))
            }
            hosts[host] = calls
            return nextID
        }

        /// Stores the task waiting for `ticket`.
        /// - Returns: `nil` when the task now waits; otherwise how to resume it at once.
        mutating func park(_ continuation: Continuation, for ticket: Ticket) -> Wakeup? {
            guard let index = hosts.index(forKey: ticket.host) else {
                return Wakeup(continuation: continuation, admitted: false)
            }
            if hosts.values[index].running.contains(ticket.id) {
                return Wakeup(continuation: continuation, admitted: true)
            }
            // Gone, or a second task waiting for one ticket: that one is not admitted.
            guard let position = hosts.values[index].waiting.firstIndex(where: { $0.id == ticket.id }),
                hosts.values[index].waiting[position].continuation == nil
            else {
                return Wakeup(continuation: continuation, admitted: false)
            }
            hosts.values[index].waiting[position].continuation = continuation
            return nil
        }

        /// Frees the ticket's slot for the next in line, or takes it out of the line.
        mutating func release(_ ticket: Ticket) -> Wakeup? {
            guard let index = hosts.index(forKey: ticket.host) else { return nil }
            let wakeup =
                hosts.values[index].running.contains(ticket.id)
                ? hosts.values[index].release(ticket.id, limit: limit)
                : hosts.values[index].leave(ticket.id)
            if hosts.values[index].isEmpty { hosts.remove(at: index) }
            return wakeup
        }

        /// Takes the ticket out of the line if it waits there.
        mutating func cancel(_ ticket: Ticket) -> Wakeup? {
            guard let index = hosts.index(forKey: ticket.host) else { return nil }
            let wakeup = hosts.values[index].leave(ticket.id)
            if hosts.values[index].isEmpty { hosts.remove(at: index) }
            return wakeup
        }

        func status(of ticket: Ticket) -> Ticket.Status {
            guard let calls = hosts[ticket.host] else { return .gone }
            if calls.running.contains(ticket.id) { return .running }
            guard let waiter = calls.waiting.first(where: { $0.id == ticket.id }) else { return .gone }
            return .waiting(taskSuspended: waiter.continuation != nil)
        }
    }

    private let state: LockedState<State>
    /// How many calls may run at once for one host.
    let limit: Int

    /// A queue that runs at most `limit` calls at once per host.
    /// - Parameter limit: How many calls may run at once for one host; at least 1.
    init(limit: Int) {
        self.limit = limit
        state = LockedState(State(limit: limit))
    }

    /// Gives a call its place: a slot of `host` when one is free and nobody waits for it,
    /// otherwise a place in the host's line by `priority`. Never blocks.
    /// - Parameters:
    ///   - host: The host the call goes to.
    ///   - priority: Where the call goes in the line if it must wait.
    /// - Returns: The call's ticket, to ``wait(_:)`` for and then ``release(_:)``.
    func admit(host: String, priority: RequestPriority) -> Ticket {
        let id = state.withLock { $0.admit(host: host, priority: priority) }
        return Ticket(host: host, priority: priority, id: id, queue: self)
    }

    /// Waits until `ticket` is admitted; returns at once when it already is. One task waits for
    /// a ticket.
    ///
    /// A waiting task that is cancelled leaves the line at once (its cancellation handler takes the
    /// ticket out), as does a ticket whose ``Ticket/cancel()`` is called from elsewhere. Release
    /// the ticket afterwards either way; for a ticket that never got a slot that does nothing.
    /// - Parameter ticket: A ticket from ``admit(host:priority:)``.
    /// - Throws: `CancellationError` when the waiting task is cancelled, when the ticket is
    ///   cancelled, or when it was released or cancelled before the wait began.
    nonisolated(nonsending) func wait(_ ticket: Ticket) async throws {
        if status(of: ticket) == .running { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                // When cancellation came first, the handler has taken the ticket out of the line
                // already, so `park` finds it gone and the wait ends here: resumed exactly once.
                state.withLock { $0.park(continuation, for: ticket) }?.resume()
            }
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Ends a call's hold on the queue, however the call ended; safe to call more than once.
    ///
    /// An admitted ticket frees its slot, which goes to the head of its host's line. A waiting
    /// ticket leaves the line (a task waiting for it throws `CancellationError`). A ticket
    /// already released, or cancelled while waiting, changes nothing.
    /// - Parameter ticket: A ticket from ``admit(host:priority:)``.
    func release(_ ticket: Ticket) {
        state.withLock { $0.release(ticket) }?.resume()
    }

    /// Takes a waiting ticket out of its line at once; see ``Ticket/cancel()``.
    private func cancel(_ ticket: Ticket) {
        state.withLock { $0.cancel(ticket) }?.resume()
    }

    /// How many calls to `host` run and wait now.
    /// - Parameter host: A host.
    /// - Returns: The admitted tickets not yet released, and the tickets in line.
    func counts(for host: String) -> (running: Int, waiting: Int) {
        state.withLock { state in
            guard let calls = state.hosts[host] else { return (0, 0) }
            return (calls.running.count, calls.waiting.count)
        }
    }

    /// Where `ticket` stands now: lets a test know a task waits for it before cancelling that task.
    /// - Parameter ticket: A ticket from ``admit(host:priority:)``.
    /// - Returns: Waiting (and whether a task is suspended for it), running, or gone.
    func status(of ticket: Ticket) -> Ticket.Status {
        state.withLock { $0.status(of: ticket) }
    }

    /// How many hosts have running or waiting calls: the queue keeps nothing for the others.
    var hostCount: Int {
        state.withLock { $0.hosts.count }
    }
}
