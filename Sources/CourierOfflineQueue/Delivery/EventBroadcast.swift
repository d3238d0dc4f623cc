// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import Foundation

/// Hands each event to every stream ``OfflineQueue/events`` returned that is still being read.
final class EventBroadcast: Sendable {
    private let listeners = LockedState<[UUID: AsyncStream<OfflineQueue.Event>.Continuation]>([:])

    /// A new stream of the events from now on; it ends when its reader is cancelled.
    func stream() -> AsyncStream<OfflineQueue.Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: OfflineQueue.Event.self)
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [listeners] _ in
            _ = listeners.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func send(_ event: OfflineQueue.Event) {
        for continuation in listeners.withLock({ Array($0.values) }) {
            continuation.yield(event)
        }
    }
}
#endif
