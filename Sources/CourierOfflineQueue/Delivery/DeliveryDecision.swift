// Compiled with the package trait `OfflineQueue`; without it this module is empty.
#if OfflineQueue
import Courier
import HTTPTypes

/// What the queue does with an entry after one delivery attempt: a pure decision, tested without
/// sockets.
enum DeliveryDecision: Equatable {
    /// 2xx: remove the entry and report the response.
    case deliver
    /// 4xx other than 401, 408, 429: keep the entry as failed.
    case reject
    /// 408, 429, 5xx, no connection: try again after the wait.
    case retry(after: Duration)
    /// A retryable failure on the last allowed attempt: keep the entry as failed.
    case exhaust
    /// 401 after the client's middleware renewed the credentials (or could not): keep the entry
    /// pending, never count it against the attempts, and send nothing that needs authentication
    /// until the app signs in again.
    case awaitSignIn
    /// The request cannot be sent at all: keep the entry as failed.
    case markUnsendable
    /// The drain was cancelled: leave the entry as it is.
    case stop

    /// How long to wait and how many attempts an entry gets.
    struct Plan {
        var maximumAttempts: Int
        var backoff: Backoff
        /// A number in `0..<1` for the jitter.
        var random: Double
    }

    /// The decision for a response.
    /// - Parameters:
    ///   - status: The response's status.
    ///   - retryAfter: The wait the server asked for in `Retry-After`, if any.
    ///   - attempts: The attempts made, this one included.
    ///   - plan: The queue's limits.
    static func after(status: HTTPResponse.Status, retryAfter: Duration?, attempts: Int, plan: Plan) -> DeliveryDecision {
        switch status.code {
        case 200..<300: return .deliver
        case 401: return .awaitSignIn
        case 408, 429, 500..<600: return retryOrExhaust(attempts: attempts, retryAfter: retryAfter, plan: plan)
        case 400..<500: return .reject
        // 1xx never reaches here; 3xx left over (redirects not followed) is not a delivery.
        default: return .reject
        }
    }

    /// The decision for a delivery that got no response.
    /// - Parameters:
    ///   - error: What the client threw.
    ///   - attempts: The attempts made, this one included.
    ///   - plan: The queue's limits.
    static func after(error: CourierError, attempts: Int, plan: Plan) -> DeliveryDecision {
        switch error.kind {
        case .cancelled: .stop
        case .notConnected, .timedOut, .transportFailed, .invalidResponse, .responseTooLarge:
            retryOrExhaust(attempts: attempts, retryAfter: nil, plan: plan)
        default: .markUnsendable
        }
    }

    private static func retryOrExhaust(attempts: Int, retryAfter: Duration?, plan: Plan) -> DeliveryDecision {
        guard attempts < plan.maximumAttempts else { return .exhaust }
        return .retry(after: wait(retry: attempts, retryAfter: retryAfter, plan: plan))
    }

    /// The backoff's wait, or the server's when it asks for longer.
    static func wait(retry: Int, retryAfter: Duration?, plan: Plan) -> Duration {
        max(plan.backoff.delay(forRetry: retry, random: plan.random), retryAfter ?? .zero)
    }
}
#endif
