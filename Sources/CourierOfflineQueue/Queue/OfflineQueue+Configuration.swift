// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import Foundation

extension OfflineQueue {
    /// How a queue delivers: its order, how long it keeps trying, how it waits, what it decodes.
    ///
    /// ```swift
    /// let queue = try OfflineQueue(client: social, name: "friends") {
    ///     $0.ordering = .strict
    ///     $0.maximumAttempts = 20
    ///     $0.timeToLive = .seconds(7 * 24 * 3600)
    ///     $0.decode(User.self, forKind: "addFriend")
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Whether an entry the server refused blocks the entries after it; `.independent` by default.
        public var ordering: Ordering = .independent
        /// How many deliveries of one entry end in a retryable failure (408, 429, 5xx, no
        /// connection) before it is marked failed with ``FailureReason/attemptsExhausted``; 10 by default.
        public var maximumAttempts = 10
        /// How long after it was enqueued an entry may still be sent; no limit by default. An
        /// older entry is marked failed with ``FailureReason/expired`` instead of being sent.
        public var timeToLive: Duration?
        /// The waits between retries of one entry, with full jitter; a server's `Retry-After`
        /// wins when it asks for longer. From 1 s to 5 minutes by default.
        public var backoff = Backoff(base: .seconds(1), maximum: .seconds(300))
        /// What tells the queue that the network came back, when it drains by itself (``OfflineQueue/start()``);
        /// `PathConnectivityMonitor` on Apple platforms, `InterfaceConnectivityMonitor` elsewhere.
        public var connectivity: any ConnectivityMonitor = PlatformConnectivity.monitor()
        /// The session whose sign-in ends a wait for authentication: when it receives new tokens
        /// (`AuthenticationSession.signIn(_:)` or a refresh), entries that waited after a 401
        /// go again. `nil` by default, when only ``OfflineQueue/resumeAfterSignIn()`` does.
        public var authentication: AuthenticationSession?
        /// A number in `0..<1` for the jitter of each wait; random by default.
        public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// How a delivered response body is decoded, per entry kind.
        var decoders: [String: @Sendable (Data, JSONDecoder) throws -> any Sendable] = [:]

        /// Creates the default configuration.
        public init() {}

        /// Decodes the response body of every delivered entry of `kind` as `type`, also after a
        /// restart, into ``ServerResponse/value``.
        /// - Parameters:
        ///   - type: The response's type.
        ///   - kind: The kind given to ``OfflineQueue/enqueue(_:kind:)``.
        public mutating func decode<Value: Decodable & Sendable>(_ type: Value.Type, forKind kind: String) {
            decoders[kind] = { data, decoder in try decoder.decode(Value.self, from: data) }
        }
    }

    /// Whether an entry the server refused blocks the entries after it.
    public struct Ordering: Sendable, Hashable {
        private enum Mode: Sendable, Hashable {
            case independent
            case strict
        }

        private let mode: Mode

        /// A refused entry is kept as failed and the entries after it go on: for changes that do
        /// not depend on one another.
        public static let independent = Ordering(mode: .independent)
        /// A refused entry stops the queue until the app retries or discards it: for changes that
        /// depend on earlier ones (create an item, then edit it).
        public static let strict = Ordering(mode: .strict)

        var isStrict: Bool { mode == .strict }
    }
}
#endif
