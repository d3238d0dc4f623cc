import Foundation
import TestSupport

/// A fresh folder for one test's queue, removed by ``remove()``.
struct QueueFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-queue-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A wall-clock time tests move by hand: `Configuration.currentDate` reads it.
final class TestDate: Sendable {
    private let seconds = LockedBox(1_800_000_000.0)

    var now: Date { Date(timeIntervalSince1970: seconds.value) }

    func advance(by duration: Duration) {
        let delta = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        seconds.mutate { $0 += delta }
    }

    var function: @Sendable () -> Date { { [self] in now } }
}
