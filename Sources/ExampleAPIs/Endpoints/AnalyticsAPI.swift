import Courier

/// The analytics backend's calls.
public enum AnalyticsAPI {
    struct Batch: Encodable, Sendable {
        var events: [AnalyticsEvent]
    }

    /// `POST v1/events {events: […]}`: records a batch. Refused locally when empty.
    public static func send(_ events: [AnalyticsEvent]) -> Request<AnalyticsReceipt> {
        Request(.post, "v1/events", body: .json(Batch(events: events)))
            .requiring(!events.isEmpty, "An analytics batch needs at least one event.")
    }
}
