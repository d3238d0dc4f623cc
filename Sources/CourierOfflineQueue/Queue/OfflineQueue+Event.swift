// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier

extension OfflineQueue {
    /// What happened in a queue, in order: read them from ``OfflineQueue/events``.
    public enum Event: Sendable {
        /// The entry was stored; it is durable.
        case enqueued(Entry)
        /// A drain began.
        case drainStarted(DrainTrigger)
        /// The server accepted the entry (2xx); it is removed from the queue.
        case delivered(Entry, ServerResponse)
        /// The server refused the entry (4xx other than 401, 408, 429); it is kept as failed.
        case rejected(Entry, ServerResponse)
        /// The entry could not be sent at all; it is kept as failed.
        case unsendable(Entry, CourierError)
        /// The delivery failed for now (408, 429, 5xx, no connection); the entry is tried again
        /// after `after`.
        case willRetry(Entry, after: Duration)
        /// The server still refused credentials after the client's middleware renewed them (or
        /// could not): the entry waits, and so does every entry that needs authentication, until
        /// the app signs the user in again (``Configuration/authentication``, or
        /// ``OfflineQueue/resumeAfterSignIn()``). Sent once for each such wait.
        case authenticationRequired(Entry)
        /// The entry reached ``Configuration/maximumAttempts``; it is kept as failed.
        case attemptsExhausted(Entry)
        /// The entry was older than ``Configuration/timeToLive``; it is kept as failed.
        case expired(Entry)
        /// Strict ordering: this failed entry stops the entries after it until the app retries or
        /// discards it.
        case blocked(by: Entry)
        /// A drain ended; `remaining` entries are still in the queue, failed ones included.
        case drainFinished(remaining: Int)
    }

    /// What started a drain.
    public enum DrainTrigger: Sendable, Hashable {
        /// ``OfflineQueue/start()``: the app launched.
        case launch
        /// The app asked (``OfflineQueue/drain()``).
        case demand
        /// A new entry was enqueued while the queue drains by itself.
        case enqueue
        /// The network came back.
        case connectivity
        /// The head entry's wait ended.
        case schedule
        /// The app signed in again after entries waited for authentication.
        case signIn
    }
}
#endif
