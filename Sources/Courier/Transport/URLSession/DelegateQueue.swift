import Foundation

/// The delegate queue of Courier's sessions: serial, as URLSession wants it. On Linux it runs each
/// delegate callback at once, on the thread URLSession hands it over from, instead of queueing it.
///
/// URLSession on Linux queues one operation per piece of body it receives, with no limit: a
/// server sending faster than the delegate queue drains (a compression bomb inflates gigabytes a
/// second) fills memory before the delegate even sees that the body is over its limit. Run at
/// once, the delegate drops what is over the limit as it arrives. Callbacks must therefore be quick
/// and must not call back into URLSession synchronously (``SessionDelegate`` does neither).
// @unchecked: it adds no state to `OperationQueue`, which is thread-safe.
final class DelegateQueue: OperationQueue, @unchecked Sendable {
    override init() {
        super.init()
        maxConcurrentOperationCount = 1
    }

    #if canImport(FoundationNetworking)
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }

    override func addOperation(_ operation: Operation) {
        operation.start()
    }
    #endif
}
