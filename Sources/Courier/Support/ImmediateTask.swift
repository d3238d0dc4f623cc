/// Starting an unstructured task on the calling thread.
enum ImmediateTask {
    /// A task running `operation`, started on the calling thread where the platform can
    /// (`Task.immediate`): work that never waits costs no thread hop, and work that does begins
    /// before the caller goes on.
    /// - Parameter operation: The work.
    /// - Returns: The task.
    static func start<Value: Sendable>(_ operation: sending @escaping () async throws -> Value) -> Task<Value, any Error> {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.immediate(operation: operation)
        }
        #endif
        return Task(operation: operation)
    }
}
