import Foundation

/// The messages of a ``WebSocket``, each decoded with the client's decoder.
public struct WebSocketDecodedMessages<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    /// A decoded message.
    public typealias Element = Value

    let base: WebSocketMessages
    let decoder: ResponseJSONDecoder

    /// An iterator over the decoded messages.
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), decoder: decoder)
    }

    /// Reads and decodes the messages one by one.
    public struct Iterator: AsyncIteratorProtocol {
        var base: WebSocketMessages.Iterator
        let decoder: ResponseJSONDecoder

        /// The next message, decoded.
        /// - Returns: The value, or `nil` once the socket closed normally.
        /// - Throws: ``CourierError/Kind/decodingFailed`` for a message that is not a `Value`;
        ///   otherwise as ``WebSocketMessages/Iterator/next()``.
        public mutating func next() async throws(CourierError) -> Value? {
            guard let message = try await base.next() else { return nil }
            let data: Data
            switch message {
            case .text(let text): data = Data(text.utf8)
            case .binary(let bytes): data = bytes
            }
            do {
                return try decoder.decode(Value.self, from: data)
            } catch {
                var failure = ResponseReader.decodingFailure(error)
                failure.message = failure.message ?? "A WebSocket message was not a \(Value.self)."
                throw failure
            }
        }
    }
}
