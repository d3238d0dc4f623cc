// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import Foundation
import HTTPTypes

/// Delivers a queue's entries one at a time, in order, through the client; and, once started,
/// drains by itself: at launch, when an entry is enqueued, when the network comes back, when the
/// app signs in again, and when the head entry's wait ends.
///
/// After a 401 that the client's middleware could not cure, it sends nothing that needs
/// authentication until ``resumeAfterSignIn()``: one refusal, not one per entry or per wait.
actor Drainer {
    private let store: QueueStore
    private let client: Client
    private let configuration: OfflineQueue.Configuration
    private let events: EventBroadcast
    /// The pass running or last run: passes run one after another, never side by side.
    private var running: Task<Void, Never>?
    /// The loop that drains by itself, while started.
    private var loop: Task<Void, Never>?
    private var listener: Task<Void, Never>?
    /// The loop's wait for the head entry, cancelled to wake it early.
    private var sleeper: Task<Void, Never>?
    /// Why the loop was woken while it was busy.
    private var pendingWake: OfflineQueue.DrainTrigger?
    /// Whether a 401 stopped the entries that need authentication until the app signs in again.
    /// Held in memory only: a new process tries the head entry once more.
    private(set) var awaitsSignIn = false
    /// ``Configuration/authentication``'s refresh count when the wait began: a refresh the
    /// refused delivery itself caused ends no wait, however late its event arrives.
    private var refreshesBeforeWait = 0

    init(store: QueueStore, client: Client, configuration: OfflineQueue.Configuration, events: EventBroadcast) {
        self.store = store
        self.client = client
        self.configuration = configuration
        self.events = events
    }

    /// Runs one pass after any pass already running: delivers entries while the head is due.
    func drain(_ trigger: OfflineQueue.DrainTrigger) async {
        let previous = running
        let pass = Task {
            await previous?.value
            await self.pass(trigger)
        }
        running = pass
        await pass.value
    }

    /// Drains now, then whenever there is a reason to.
    func start() {
        guard loop == nil else { return }
        let changes = configuration.connectivity.changes()
        let store = store
        let clientConfiguration = client.configuration
        listener = Task {
            for await connected in changes where connected {
                try? await store.makeTransportFailuresDue(now: clientConfiguration.currentDate())
                self.wake(.connectivity)
            }
        }
        loop = Task { await self.run() }
    }

    /// Stops draining by itself, and cancels the pass running; entries stay as they are.
    func stop() async {
        let tasks = [loop, listener, sleeper, running].compactMap { $0 }
        loop = nil
        listener = nil
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Ends a wait for authentication when `event` of ``Configuration/authentication`` brought
    /// tokens the refused delivery did not already have.
    func sessionChanged(_ event: AuthenticationSession.Event) {
        if event == .refreshed, let session = configuration.authentication, session.refreshCount <= refreshesBeforeWait { return }
        resumeAfterSignIn()
    }

    /// Lets entries that need authentication go again after the app signed in, and wakes the loop.
    func resumeAfterSignIn() {
        guard awaitsSignIn else { return }
        awaitsSignIn = false
        wake(.signIn)
    }

    /// Wakes the loop, when started.
    func wake(_ trigger: OfflineQueue.DrainTrigger) {
        guard loop != nil else { return }
        pendingWake = trigger
        sleeper?.cancel()
    }

    private func run() async {
        var trigger = OfflineQueue.DrainTrigger.launch
        while !Task.isCancelled {
            await drain(trigger)
            trigger = .schedule
            if let woken = pendingWake {
                pendingWake = nil
                trigger = woken
                continue
            }
            let wait = await waitForHead()
            let clock = client.configuration.clock
            let sleep = Task { _ = try? await clock.sleep(for: wait) }
            sleeper = sleep
            // The wait is a task of its own, so that a wake-up cancels it and not the loop.
            await withTaskCancellationHandler {
                await sleep.value
            } onCancel: {
                sleep.cancel()
            }
            sleeper = nil
            if let woken = pendingWake {
                pendingWake = nil
                trigger = woken
            }
        }
    }

    /// How long until the head entry is due; an hour when nothing waits (a wake-up comes first),
    /// or when the head waits for a sign-in.
    private func waitForHead() async -> Duration {
        let strict = configuration.ordering.isStrict
        guard let head = try? store.heads(strict: strict, limit: 1, withoutAuthentication: awaitsSignIn && !strict).first,
            head.state == .pending, !(awaitsSignIn && head.requiresAuthentication)
        else {
            return .seconds(3600)
        }
        let seconds = head.nextAttemptAt - client.configuration.currentDate().timeIntervalSince1970
        return .milliseconds(Int64(max(0, min(seconds, 3600)) * 1000) + 1)
    }

    private func pass(_ trigger: OfflineQueue.DrainTrigger) async {
        events.send(.drainStarted(trigger))
        let strict = configuration.ordering.isStrict
        let currentDate = client.configuration.currentDate
        // Entries are read a batch at a time, in order; delivered ones are removed while the next
        // is sent, and all removals end before the next batch is read.
        var batch: ArraySlice<StoredEntry> = []
        while !Task.isCancelled {
            if batch.isEmpty {
                await finishRemovals()
                let heads = try? store.heads(strict: strict, limit: Self.batchSize, withoutAuthentication: awaitsSignIn && !strict)
                guard let next = heads, !next.isEmpty else { break }
                batch = next[...]
            }
            let head = batch.removeFirst()
            guard head.state == .pending else {
                events.send(.blocked(by: head.entry))
                break
            }
            if awaitsSignIn && head.requiresAuthentication {
                // Waits for the sign-in; with strict ordering, so does everything after it.
                if strict { break } else { continue }
            }
            let now = currentDate()
            if let timeToLive = configuration.timeToLive, now.timeIntervalSince1970 - head.enqueuedAt > StoredEntry.seconds(timeToLive) {
                var expired = head
                expired.state = .expired
                guard (try? store.update(expired, durably: false)) != nil else { break }
                events.send(.expired(expired.entry))
                guard !strict else {
                    events.send(.blocked(by: expired.entry))
                    break
                }
                continue
            }
            guard head.nextAttemptAt <= now.timeIntervalSince1970, await attempt(head, currentDate: currentDate) else { break }
        }
        await finishRemovals()
        events.send(.drainFinished(remaining: (try? await store.count()) ?? 0))
    }

    /// How many entries a pass reads at once.
    static let batchSize = 32

    /// Removals of delivered entries under way.
    private var removals: [Task<Void, Never>] = []

    private func finishRemovals() async {
        let running = removals
        removals = []
        for removal in running { await removal.value }
    }

    /// Sends one entry and records the outcome; returns whether the pass goes on.
    private func attempt(_ stored: StoredEntry, currentDate: @Sendable () -> Date) async -> Bool {
        var entry = stored
        entry.attempts += 1
        let plan = DeliveryDecision.Plan(
            maximumAttempts: configuration.maximumAttempts,
            backoff: configuration.backoff,
            random: configuration.random()
        )
        let decision: DeliveryDecision
        var response: OfflineQueue.ServerResponse?
        var failure: CourierError?
        do {
            let result = try await client.exchange(entry.deferred(bodies: store.bodies))
            response = OfflineQueue.ServerResponse(status: result.response.status, headerFields: result.response.headerFields, body: result.body)
            let status = result.response.status
            let retryAfter = status.kind == .successful ? nil : RetryAfter.delay(from: result.response.headerFields[.retryAfter], now: currentDate())
            decision = .after(status: status, retryAfter: retryAfter, attempts: entry.attempts, plan: plan)
        } catch {
            failure = error
            decision = .after(error: error, attempts: entry.attempts, plan: plan)
        }
        entry.lastStatus = response.map { $0.status.code }
        entry.lastResponseFields = response.map { StoredEntry.pairs($0.headerFields) }
        entry.lastResponseBody = response?.body
        entry.lastError = failure?.localizedDescription ?? response.map { "The server answered \($0.status.code)." }
        entry.lastErrorKind = failure == nil ? nil : "transport"
        do {
            switch decision {
            case .deliver:
                let store = store
                removals.append(Task { try? await store.remove(entry) })
                if var delivered = response {
                    delivered.decoded = decoded(delivered.body, kind: entry.kind)
                    events.send(.delivered(entry.entry, delivered))
                }
                return true
            case .reject:
                entry.state = .rejected
                try store.update(entry, durably: false)
                if let response { events.send(.rejected(entry.entry, response)) }
                return goesOn(after: entry)
            case .retry(let wait):
                entry.nextAttemptAt = currentDate().timeIntervalSince1970 + StoredEntry.seconds(wait)
                try store.update(entry, durably: false)
                if failure != nil { configuration.connectivity.transportFailed() }
                events.send(.willRetry(entry.entry, after: wait))
                return false
            case .exhaust:
                entry.state = .exhausted
                try store.update(entry, durably: false)
                events.send(.attemptsExhausted(entry.entry))
                return goesOn(after: entry)
            case .awaitSignIn:
                // Not the entry's fault: it keeps its attempts and waits, with every other entry
                // that needs credentials, for the app's sign-in.
                entry.attempts -= 1
                try store.update(entry, durably: false)
                awaitsSignIn = true
                refreshesBeforeWait = configuration.authentication?.refreshCount ?? 0
                events.send(.authenticationRequired(entry.entry))
                return !configuration.ordering.isStrict
            case .markUnsendable:
                entry.state = .unsendable
                try store.update(entry, durably: false)
                events.send(.unsendable(entry.entry, failure ?? CourierError(.invalidRequest)))
                return goesOn(after: entry)
            case .stop:
                return false
            }
        } catch {
            return false
        }
    }

    /// Whether the pass goes on after `entry` was marked failed: with strict ordering it blocks
    /// the rest.
    private func goesOn(after entry: StoredEntry) -> Bool {
        guard configuration.ordering.isStrict else { return true }
        events.send(.blocked(by: entry.entry))
        return false
    }

    /// The body decoded as the type registered for `kind`, if any.
    private func decoded(_ body: Data, kind: String) -> OfflineQueue.DecodedValue? {
        guard let decode = configuration.decoders[kind], let value = try? decode(body, client.configuration.decoder) else { return nil }
        return OfflineQueue.DecodedValue(value: value)
    }
}
#endif
