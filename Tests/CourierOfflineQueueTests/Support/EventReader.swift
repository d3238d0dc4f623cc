// Compiled with the package trait `OfflineQueue`, as the module under test is.
#if OfflineQueue
import CourierOfflineQueue
import TestSupport
import Testing

/// Reads `events` until `done` holds for one, and returns them all; gives up after 30 s and
/// records an issue, so that a missing event fails the test instead of hanging it.
func read(
    _ events: AsyncStream<OfflineQueue.Event>,
    until done: @escaping @Sendable (OfflineQueue.Event) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> [OfflineQueue.Event] {
    let reader = Task {
        var seen: [OfflineQueue.Event] = []
        for await event in events {
            seen.append(event)
            if done(event) { return (seen, true) }
        }
        return (seen, false)
    }
    let watchdog = Task {
        try? await Task.sleep(for: .seconds(30))
        reader.cancel()
    }
    let (seen, finished) = await reader.value
    watchdog.cancel()
    #expect(finished, "the awaited event did not come; seen: \(seen)", sourceLocation: sourceLocation)
    return seen
}
#endif
