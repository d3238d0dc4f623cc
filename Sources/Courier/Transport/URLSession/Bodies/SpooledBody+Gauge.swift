extension SpooledBody {
    /// What the bodies that share it held: the most unread bytes any of them kept in memory at
    /// once, and how many went through their files. Tests read it; nothing else needs it.
    final class Gauge: Sendable {
        private let figures = LockedState((peakMemoryBytes: 0, spilledBytes: 0))

        /// The most unread bytes one body kept in memory at once.
        var peakMemoryBytes: Int { figures.withLock { $0.peakMemoryBytes } }
        /// The bytes written to the bodies' files.
        var spilledBytes: Int { figures.withLock { $0.spilledBytes } }

        func held(_ memoryBytes: Int) {
            figures.withLock { $0.peakMemoryBytes = max($0.peakMemoryBytes, memoryBytes) }
        }

        func spilled(_ count: Int) {
            figures.withLock { $0.spilledBytes += count }
        }
    }
}
