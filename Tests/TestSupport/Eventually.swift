/// Waits until `condition` holds, looking every 10 ms, for at most `bound`: long enough for a busy
/// machine, so that a test asserts what happens rather than how fast.
/// - Parameters:
///   - bound: The longest wait; 30 s by default.
///   - condition: What the test waits for.
/// - Returns: Whether `condition` held (the last look is after `bound`), for `#expect`.
/// - Throws: What `condition` throws.
@discardableResult
public func eventually(
    within bound: Duration = .seconds(30),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + bound
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
