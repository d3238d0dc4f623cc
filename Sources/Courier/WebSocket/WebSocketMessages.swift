/// The messages of a ``WebSocket``, in order. Cancelling the task that waits for the next one
/// closes the socket with 1001.
public struct WebSocketMessages: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = WebSocketMessage

    let socket: WebSocket

    /// An iterator over the messages.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(socket: socket)
    }

    /// Reads the messages one by one.
    public struct Iterator: AsyncIteratorProtocol {
        let socket: WebSocket

        /// The next message.
        /// - Returns: The message, or `nil` once the app closed the socket (or the task was cancelled).
        /// - Throws: A ``CourierError`` of kind ``CourierError/Kind/webSocket`` when the server
        ///   closed the socket or it failed.
        public mutating func next() async throws(CourierError) -> WebSocketMessage? {
            let session = socket.session
            let result = await withTaskCancellationHandler { () async -> Result<WebSocketMessage?, CourierError> in
                do {
                    return .success(try await session.inbox.next())
                } catch {
                    return .failure(CourierError(error))
                }
            } onCancel: {
                session.closeInBackground(.goingAway, reason: "")
            }
            return try result.get()
        }
    }
}
