import Courier
import Foundation

/// Something that happened in the app, for the analytics backend. Properties are free-form JSON.
public struct AnalyticsEvent: Codable, Sendable, Hashable {
    /// The event's name, e.g. `screen_view`.
    public var name: String
    /// When it happened.
    public var timestamp: Date
    /// Anything else worth knowing, as JSON values.
    public var properties: [String: JSONValue]

    /// Creates an event.
    public init(name: String, timestamp: Date = Date(), properties: [String: JSONValue] = [:]) {
        self.name = name
        self.timestamp = timestamp
        self.properties = properties
    }
}

/// The analytics backend's receipt for a batch.
public struct AnalyticsReceipt: Codable, Sendable, Hashable {
    /// Events accepted from this batch.
    public var accepted: Int
    /// Events accepted so far in total.
    public var total: Int
    /// The app id the backend saw.
    public var appId: String
}
