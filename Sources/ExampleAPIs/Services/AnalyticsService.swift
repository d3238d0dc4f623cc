import Courier

/// Sends batches of events to the analytics backend (a second server, with its own client).
public struct AnalyticsService: Sendable {
    /// The analytics backend's client.
    public let client: Client

    /// Creates the service.
    /// - Parameter client: The analytics backend's client.
    public init(client: Client) {
        self.client = client
    }

    /// Sends `events` as one batch.
    /// - Returns: The backend's receipt.
    /// - Throws: ``CourierError``; `.invalidRequest` for an empty batch, before any traffic.
    @discardableResult
    public func send(_ events: [AnalyticsEvent]) async throws(CourierError) -> AnalyticsReceipt {
        try await client.send(AnalyticsAPI.send(events))
    }
}
