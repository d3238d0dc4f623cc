import Foundation

/// A wall clock a test moves by hand: give `{ date.now }` to `Configuration.currentDate`.
public final class MovableDate: Sendable {
    private let box: LockedBox<Date>

    /// A clock at `start`.
    public init(_ start: Date = Date()) {
        box = LockedBox(start)
    }

    /// The time now.
    public var now: Date { box.value }

    /// Moves the clock forward by `seconds`.
    public func advance(seconds: Double) {
        box.mutate { $0 = $0.addingTimeInterval(seconds) }
    }
}
