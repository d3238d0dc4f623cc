// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import Foundation
import HTTPTypes

/// A durable queue of mutations (POST, PUT, PATCH, DELETE) made while offline: each is stored in
/// SQLite before ``enqueue(_:kind:)`` returns, survives restarts and crashes, and is delivered in
/// order through the client's middleware with an `Idempotency-Key` generated once.
///
/// ```swift
/// let queue = try OfflineQueue(client: social, name: "friends")
/// queue.start()   // drains now, when the network comes back, and when a wait ends
/// try await queue.enqueue(SocialAPI.addFriend(2, to: 1), kind: "addFriend")
/// ```
///
/// What is stored: the method, the path, the endpoint's own query and header fields, and the
/// body (bytes, or a copy of its file in the queue's folder). Credentials are never stored, and
/// neither are the client's common query and header fields: the client's middleware adds fresh
/// ones when the entry is sent, refreshing an expired token on the way.
///
/// What the server's answer does: 2xx removes the entry and reports the response
/// (``Event/delivered(_:_:)``); 401 goes through the client's `AuthenticationMiddleware`, and one
/// it cannot cure keeps every entry that needs authentication waiting, never dropped, until the
/// app signs in again (``Event/authenticationRequired(_:)``, ``resumeAfterSignIn()``); 408, 429,
/// 5xx and connection failures are retried with backoff and
/// jitter, honouring `Retry-After`, up to ``Configuration/maximumAttempts``; any other 4xx marks the
/// entry failed and keeps it for the app (``retry(_:)``, ``discard(_:)``).
///
/// Exactly once needs the server's help: a server that honours `Idempotency-Key` answers a
/// delivery it has already applied with its first result, so an entry whose answer was lost (the
/// connection cut, the app killed) is safe to send again. Against a server that ignores the key,
/// delivery is at least once.
///
/// A started queue drains until ``stop()``, or until nothing holds it any more: keep a reference
/// for as long as it should deliver.
public final class OfflineQueue: Sendable {
    /// The queue's name: its database is `<directory>/<name>.sqlite`.
    public let name: String
    /// The folder holding the database and the copied body files.
    public let directory: URL
    private let client: Client
    private let store: QueueStore
    private let broadcast = EventBroadcast()
    private let drainer: Drainer
    /// The last ``start()``, which ``stop()`` waits for: a queue started and stopped at once ends stopped.
    private let starting = LockedState<Task<Void, Never>?>(nil)
    /// Listens to ``Configuration/authentication`` for the sign-in that ends a wait.
    private let signInListener: Task<Void, Never>?

    /// Opens the queue named `name`, creating it when it does not exist yet; entries stored by
    /// an earlier process are there.
    ///
    /// - Parameters:
    ///   - client: The client that sends the entries, with its middleware.
    ///   - name: The queue's name: letters, digits, `.`, `-` and `_`; `"default"` by default.
    ///   - directory: Where the database lives; a `Courier/OfflineQueue` folder in Application
    ///     Support by default (never Caches, which the system may empty).
    ///   - configure: Adjusts the ``Configuration``.
    /// - Throws: `CourierError` of kind `invalidRequest` for a bad name, `fileAccessFailed`
    ///   when the database cannot be opened.
    public init(
        client: Client,
        name: String = "default",
        directory: URL? = nil,
        configure: (inout Configuration) -> Void = { _ in }
    ) throws(CourierError) {
        guard !name.isEmpty, name.utf8.allSatisfy({ Self.nameBytes.contains($0) }), !name.hasPrefix(".") else {
            throw CourierError(.invalidRequest, message: "A queue's name may hold only letters, digits, \".\", \"-\" and \"_\".")
        }
        var configuration = Configuration()
        configure(&configuration)
        self.name = name
        self.client = client
        let folder: URL
        if let directory {
            folder = directory
        } else {
            folder = try Self.defaultDirectory()
        }
        self.directory = folder
        self.store = try QueueStore(directory: folder, name: name)
        let drainer = Drainer(store: store, client: client, configuration: configuration, events: broadcast)
        self.drainer = drainer
        self.signInListener = configuration.authentication.map { session in
            let events = session.events
            // Holds the drainer weakly, so that the queue's lifetime stays the app's to decide.
            return Task { [weak drainer] in
                for await event in events where event == .signedIn || event == .refreshed {
                    guard let drainer else { return }
                    await drainer.sessionChanged(event)
                }
            }
        }
    }

    deinit {
        // A queue nobody holds stops draining: its loop holds only the drainer, never the queue.
        signInListener?.cancel()
        let drainer = drainer
        let started = starting.withLock { $0 }
        Task {
            await started?.value
            await drainer.stop()
        }
    }

    /// `Courier/OfflineQueue` in the user's Application Support folder (on Linux, the XDG data
    /// folder), created when missing.
    /// - Returns: The folder.
    /// - Throws: `CourierError` of kind `fileAccessFailed` when it cannot be created.
    public static func defaultDirectory() throws(CourierError) -> URL {
        do {
            let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
            let folder = support.appendingPathComponent("Courier/OfflineQueue", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        } catch {
            throw CourierError(.fileAccessFailed, message: "The offline queue's folder could not be created.", underlyingError: error)
        }
    }

    /// Stores the call to be delivered later; it is durable (in the database, its file body
    /// copied) when this returns. Its `Idempotency-Key` is the endpoint's own when it sets one,
    /// otherwise a new UUID.
    ///
    /// ```swift
    /// let entry = try await queue.enqueue(SocialAPI.addFriend(2, to: 1), kind: "addFriend")
    /// ```
    /// - Parameters:
    ///   - endpoint: Any call whose method is not GET. Its body is encoded now, as
    ///     `Client.send(_:)` would encode it.
    ///   - kind: What the app calls this kind of change, to recognise its entries and decode
    ///     their responses (``Configuration/decode(_:forKind:)``); the endpoint's name
    ///     (`"POST friends"`) by default.
    /// - Returns: The stored entry.
    /// - Throws: `CourierError`: `invalidRequest` for a GET or an invalid request,
    ///   `encodingFailed` when the body cannot be encoded, `fileAccessFailed` when a file body
    ///   cannot be copied or the database cannot be written. Nothing is stored then.
    @discardableResult
    public func enqueue<E: Endpoint>(_ endpoint: E, kind: String? = nil) async throws(CourierError) -> Entry {
        let request = endpoint.request
        guard request.method != .get else {
            throw CourierError(.invalidRequest, message: "A GET cannot be queued: only changes (POST, PUT, PATCH, DELETE) are.")
        }
        let deferred = try client.deferred(request)
        let bodyFile = try copyBodyFile(of: deferred)
        let stored = StoredEntry(
            deferred,
            kind: kind ?? deferred.name,
            bodyFile: bodyFile,
            idempotencyKey: deferred.headerFields[.idempotencyKey] ?? UUID().uuidString.lowercased(),
            now: client.configuration.currentDate()
        )
        let entry: StoredEntry
        do {
            entry = try await store.insert(stored)
        } catch {
            if let bodyFile { try? FileManager.default.removeItem(at: store.bodies.appendingPathComponent(bodyFile)) }
            throw error
        }
        broadcast.send(.enqueued(entry.entry))
        await drainer.wake(.enqueue)
        return entry.entry
    }

    /// Every entry, pending and failed, in delivery order.
    /// - Returns: The entries.
    /// - Throws: `CourierError` of kind `fileAccessFailed` when the database cannot be read.
    public func entries() async throws(CourierError) -> [Entry] {
        try await store.all().map(\.entry)
    }

    /// How many entries there are, pending and failed.
    /// - Returns: The count.
    /// - Throws: `CourierError` of kind `fileAccessFailed` when the database cannot be read.
    public func count() async throws(CourierError) -> Int {
        try await store.count()
    }

    /// Makes a failed (or waiting) entry pending and due now, with its attempts reset; it keeps
    /// its place and its `Idempotency-Key`.
    /// - Parameter id: The entry's ``Entry/id``.
    /// - Throws: `CourierError` of kind `notFound` when there is no such entry,
    ///   `fileAccessFailed` when the database cannot be written.
    public func retry(_ id: Entry.ID) async throws(CourierError) {
        guard var entry = try await store.entry(id) else { throw Self.noEntry(id) }
        entry.state = .pending
        entry.attempts = 0
        entry.nextAttemptAt = client.configuration.currentDate().timeIntervalSince1970
        try store.update(entry)
        await drainer.wake(.demand)
    }

    /// Removes an entry without sending it.
    /// - Parameter id: The entry's ``Entry/id``.
    /// - Throws: `CourierError` of kind `notFound` when there is no such entry,
    ///   `fileAccessFailed` when the database cannot be written.
    public func discard(_ id: Entry.ID) async throws(CourierError) {
        guard let entry = try await store.entry(id) else { throw Self.noEntry(id) }
        try store.delete(entry)
        await drainer.wake(.demand)
    }

    /// Delivers every entry that is due now, in order, and returns when the head entry has to
    /// wait (a retry's backoff, `Retry-After`, a failed head with strict ordering) or the queue is
    /// empty. Waits for a drain already running first; never runs two at once.
    public func drain() async {
        await drainer.drain(.demand)
    }

    /// Starts draining by itself: now (an app's launch), whenever an entry is enqueued, when the
    /// network comes back (``Configuration/connectivity``), and when the head entry's wait ends
    /// (measured on the client's `Configuration.clock`).
    public func start() {
        let drainer = drainer
        starting.withLock { previous in
            previous = Task { [previous] in
                await previous?.value
                await drainer.start()
            }
        }
    }

    /// Ends a wait for authentication: entries that a 401 held back go again, in order, now when
    /// the queue drains by itself, otherwise at the next ``drain()``. Call it when the user has
    /// signed in, unless ``Configuration/authentication`` tells the queue already.
    public func resumeAfterSignIn() async {
        await drainer.resumeAfterSignIn()
    }

    /// Stops draining by itself and cancels a delivery in flight; the entries stay stored.
    /// Releasing the last reference to a started queue stops it too.
    public func stop() async {
        await starting.withLock { $0 }?.value
        await drainer.stop()
    }

    /// What happens in the queue, from now on: entries stored, delivered, refused, retried.
    ///
    /// ```swift
    /// for await event in queue.events {
    ///     if case .delivered(let entry, let response) = event { print(entry.kind, response.status) }
    /// }
    /// ```
    /// Each access returns a new stream; it ends when its reading task is cancelled.
    public var events: AsyncStream<Event> {
        broadcast.stream()
    }

    private static let nameBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_".utf8)

    private static func noEntry(_ id: Entry.ID) -> CourierError {
        CourierError(.notFound, message: "The offline queue has no entry \(id).")
    }

    /// Writes a body that is not held in memory (a file, a multipart form with files) into the
    /// queue's folder, a piece at a time; returns the copy's name.
    private func copyBodyFile(of request: DeferredRequest) throws(CourierError) -> String? {
        guard let payload = request.payload, !payload.isInMemory else { return nil }
        let name = UUID().uuidString.lowercased()
        let copy = store.bodies.appendingPathComponent(name)
        do {
            try payload.write(to: copy)
            return name
        } catch {
            try? FileManager.default.removeItem(at: copy)
            throw CourierError(
                .fileAccessFailed,
                message: "The request body cannot be queued: it could not be copied. \(error.message ?? "")",
                underlyingError: error
            )
        }
    }
}
#endif
