/// How urgent a call is: the order in which waiting calls start when the client limits how many
/// calls run at once per host (``Configuration/maximumCallsPerHost``).
///
/// Priority only matters while calls wait for a host's free slot. Then the most urgent waiting
/// call starts first, and calls of one priority start in the order they were made. A call that
/// is already running is never stopped for a more urgent one, and a new call never starts ahead
/// of a waiting call of the same or a higher priority. Without a limit, or while a host has free
/// slots, every call starts at once whatever its priority.
///
/// Priorities compare by urgency: `.prefetch < .background < .userInitiated`.
public enum RequestPriority: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Work fetched ahead in case it is needed, such as the next page or images just off
    /// screen: starts only when no background or user-initiated call waits for its host.
    case prefetch
    /// Work the user did not ask for and does not watch, such as syncing or uploading logs:
    /// starts after waiting user-initiated calls, before waiting prefetches.
    case background
    /// Work the user asked for and is waiting to see: starts before every other waiting call
    /// for its host. The default.
    case userInitiated

    /// Whether `lhs` is less urgent than `rhs`.
    /// - Parameters:
    ///   - lhs: A priority.
    ///   - rhs: Another priority.
    /// - Returns: `true` when calls of `lhs` start after waiting calls of `rhs`.
    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
