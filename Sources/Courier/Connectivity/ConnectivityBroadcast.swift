import Foundation

/// Hands each change of connectivity to every stream that ``ConnectivityMonitor/changes()``
/// returned and that is still being read.
package final class ConnectivityBroadcast: Sendable {
    private let listeners = LockedState<[UUID: AsyncStream<Bool>.Continuation]>([:])

    /// Creates a broadcast with no listener.
    package init() {}

    /// A new stream of the changes from now on; it ends when its reader is cancelled.
    package func stream() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [listeners] _ in
            _ = listeners.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells every listener that connectivity is now `connected`.
    package func send(_ connected: Bool) {
        for continuation in listeners.withLock({ Array($0.values) }) {
            continuation.yield(connected)
        }
    }
}
