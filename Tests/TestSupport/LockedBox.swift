import Courier

/// A value behind a lock, for test doubles and for what tasks of a test report to it: the tests'
/// face of the library's own `LockedState`.
public final class LockedBox<Value: Sendable>: Sendable {
    private let state: LockedState<Value>

    /// Creates a box holding `value`.
    public init(_ value: Value) { state = LockedState(value) }

    /// The value now.
    public var value: Value { state.withLock { $0 } }

    /// Changes the value under the lock; never `await` inside.
    /// - Parameter body: Changes the value.
    /// - Returns: What `body` returns.
    @discardableResult
    public func mutate<T>(_ body: (inout Value) throws -> T) rethrows -> T { try state.withLock { try body(&$0) } }
}

extension LockedBox {
    /// Appends a value from any task.
    /// - Parameter element: The value.
    public func append<Element: Sendable>(_ element: Element) where Value == [Element] {
        mutate { $0.append(element) }
    }

    /// Every value appended so far, in order.
    public var all: Value { value }

    /// Adds one from any task.
    public func increment() where Value == Int {
        mutate { $0 += 1 }
    }
}
