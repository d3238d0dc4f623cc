import Foundation

/// A value guarded by a lock, for the few pieces of state shared between tasks and callbacks.
///
/// `Mutex` from the Synchronization module would do, but needs iOS 18 / macOS 15.
// @unchecked: every access to `value` goes through `lock`.
package final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. Never `await` inside.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
