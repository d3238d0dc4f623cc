import Courier

/// Records the progress values a transfer reports, from whichever tasks report them.
public final class ProgressLog: Sendable {
    private let values = LockedBox<[TransferProgress]>([])

    /// An empty log.
    public init() {}

    /// Records one value; pass it as a transfer's `progress`.
    /// - Parameter progress: The value.
    public func record(_ progress: TransferProgress) { values.append(progress) }

    /// Every value recorded, in order.
    public var all: [TransferProgress] { values.all }

    /// The download values, in order.
    public var downloads: [TransferProgress] { all.filter { $0.direction == .download } }
}
