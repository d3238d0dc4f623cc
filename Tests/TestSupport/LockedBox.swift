import Foundation

/// A value behind a lock, for test doubles and for what tasks of a test report to it.
// @unchecked: every access holds `lock`.
public final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    /// Creates a box holding `value`.
    public init(_ value: Value) { stored = value }

    /// The value now.
    public var value: Value { lock.withLock { stored } }

    /// Changes the value under the lock; never `await` inside.
    /// - Parameter body: Changes the value.
    /// - Returns: What `body` returns.
    @discardableResult
    public func mutate<T>(_ body: (inout Value) throws -> T) rethrows -> T { try lock.withLock { try body(&stored) } }
}
