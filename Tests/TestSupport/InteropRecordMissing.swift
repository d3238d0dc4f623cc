/// A server's record did not show what a test waited for: what it waited for, and the record as it
/// was, so that the failure shows what the server saw instead.
public struct InteropRecordMissing: Error, CustomStringConvertible {
    /// What the test waited for, and the record's text.
    public let description: String

    /// Looks for a record every 20 ms until `find` returns one or `bound` passes (servers write
    /// their records when an exchange ends, a moment after the client has its answer).
    /// - Parameters:
    ///   - what: What the test waits for, for the message.
    ///   - bound: The longest wait.
    ///   - record: The record's text now, for the message.
    ///   - find: The record, or `nil` while it is not there.
    /// - Returns: The record.
    /// - Throws: ``InteropRecordMissing`` when none comes within `bound`.
    public static func wait<T>(for what: String, within bound: Duration, record: @autoclosure () -> String, _ find: () -> T?) async throws -> T {
        let deadline = ContinuousClock.now + bound
        while true {
            if let found = find() { return found }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw InteropRecordMissing(description: "no \(what) within \(bound); the record:\n\(String(record().suffix(4000)))")
    }
}
