/// Where a response came from: the network, a cache, or a cache after the server confirmed it
/// (a `304 Not Modified` to a conditional request).
public struct ResponseSource: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case network
        case cache
        case revalidated
    }

    private let kind: Kind

    /// Fetched from the server.
    public static let network = ResponseSource(kind: .network)
    /// Served from a cache without asking the server.
    public static let cache = ResponseSource(kind: .cache)
    /// Served from a cache after the server confirmed it was still fresh.
    public static let revalidated = ResponseSource(kind: .revalidated)

    /// `network`, `cache` or `revalidated`.
    public var description: String {
        switch kind {
        case .network: "network"
        case .cache: "cache"
        case .revalidated: "revalidated"
        }
    }
}
