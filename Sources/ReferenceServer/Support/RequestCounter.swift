import Foundation

/// How many requests a server has routed: read from any thread, bumped once per request.
// @unchecked: `count` is only touched under `lock`.
final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.withLock { count += 1 }
    }

    var value: Int {
        lock.withLock { count }
    }
}
