// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Foundation
import Courier
import HTTPTypes

extension OfflineQueue {
    /// One stored mutation, as the app sees it.
    public struct Entry: Sendable, Hashable, Identifiable {
        /// The entry's number: entries of one queue are delivered in the order of these.
        public var id: Int64
        /// What the app called this kind of change (``OfflineQueue/enqueue(_:kind:)``).
        public var kind: String
        /// The HTTP method.
        public var method: HTTPRequest.Method
        /// The path below the base URL, escaped.
        public var path: String
        /// The `Idempotency-Key` sent with every delivery of this entry.
        public var idempotencyKey: String
        /// Waiting to be delivered, or failed and kept for the app.
        public var state: State
        /// How many deliveries were attempted.
        public var attempts: Int
        /// When it was enqueued.
        public var enqueuedAt: Date
        /// When it is sent next, at the earliest.
        public var nextAttemptAt: Date
        /// The last response that did not deliver it (a refusal, a 503), if any.
        public var lastResponse: ServerResponse?
        /// Why the last attempt failed, in words, if it did.
        public var lastError: String?
    }

    /// Whether an entry is still to be delivered.
    public enum State: Sendable, Hashable {
        /// Waiting for its turn, or for its next attempt.
        case pending
        /// Not delivered and no longer tried: kept for the app to inspect, retry or discard.
        case failed(FailureReason)
    }

    /// Why an entry was marked failed.
    public enum FailureReason: Sendable, Hashable {
        /// The server refused it with a 4xx status other than 401, 408 and 429.
        case rejected(HTTPResponse.Status)
        /// ``Configuration/maximumAttempts`` deliveries ended in retryable failures.
        case attemptsExhausted
        /// It was older than ``Configuration/timeToLive`` when its turn came.
        case expired
        /// It could not be sent at all (its stored body file is gone, its request is invalid).
        case unsendable
    }

    /// A response as the server sent it: what a delivered entry reports, also after a restart.
    public struct ServerResponse: Sendable, Hashable {
        /// The status.
        public var status: HTTPResponse.Status
        /// The header fields.
        public var headerFields: HTTPFields
        /// The body.
        public var body: Data
        /// The body decoded as the type registered for the entry's kind
        /// (``Configuration/decode(_:forKind:)``), or `nil` when none is registered or it did
        /// not decode.
        public var value: (any Sendable)? { decoded?.value }
        var decoded: DecodedValue?

        /// Decodes the body as JSON.
        /// - Parameters:
        ///   - type: The type to decode.
        ///   - decoder: The decoder; a plain `JSONDecoder` by default.
        /// - Returns: The decoded value.
        /// - Throws: `CourierError` of kind `decodingFailed`.
        public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws(CourierError) -> Value {
            do {
                return try decoder.decode(Value.self, from: body)
            } catch {
                throw CourierError(.decodingFailed, message: "The queued response could not be read as \(Value.self).", underlyingError: error)
            }
        }

        /// Two responses are equal when their status, fields and bodies are; the decoded value is
        /// not compared.
        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.status == rhs.status && lhs.headerFields == rhs.headerFields && lhs.body == rhs.body
        }

        /// Hashes the status, fields and body.
        /// - Parameter hasher: The hasher.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(status)
            hasher.combine(headerFields)
            hasher.combine(body)
        }
    }

    /// A decoded value, boxed so that a response stays `Sendable` without being compared by it.
    struct DecodedValue: Sendable {
        let value: any Sendable
    }
}
#endif
