// Compiled with the package trait `OfflineQueue`, as the module under test is.
#if OfflineQueue
import Courier
import HTTPTypes
import Testing

@testable import CourierOfflineQueue

@Suite("What the queue does after one delivery attempt")
struct DeliveryDecisionTests {
    let plan = DeliveryDecision.Plan(maximumAttempts: 3, backoff: Backoff(base: .seconds(1), maximum: .seconds(60)), random: 0.5)

    @Test("2xx delivers, 401 waits for credentials, other 4xx are refusals")
    func statuses() {
        #expect(DeliveryDecision.after(status: .ok, retryAfter: nil, attempts: 1, plan: plan) == .deliver)
        #expect(DeliveryDecision.after(status: .created, retryAfter: nil, attempts: 1, plan: plan) == .deliver)
        #expect(DeliveryDecision.after(status: .unauthorized, retryAfter: nil, attempts: 9, plan: plan) == .awaitSignIn)
        #expect(DeliveryDecision.after(status: .badRequest, retryAfter: nil, attempts: 1, plan: plan) == .reject)
        #expect(DeliveryDecision.after(status: .notFound, retryAfter: nil, attempts: 1, plan: plan) == .reject)
        #expect(DeliveryDecision.after(status: .unprocessableContent, retryAfter: nil, attempts: 1, plan: plan) == .reject)
    }

    @Test("408, 429 and 5xx are retried with backoff until the last attempt")
    func retryable() {
        for status in [HTTPResponse.Status.requestTimeout, .tooManyRequests, .internalServerError, .serviceUnavailable] {
            #expect(DeliveryDecision.after(status: status, retryAfter: nil, attempts: 1, plan: plan) == .retry(after: .milliseconds(500)))
            #expect(DeliveryDecision.after(status: status, retryAfter: nil, attempts: 2, plan: plan) == .retry(after: .seconds(1)))
            #expect(DeliveryDecision.after(status: status, retryAfter: nil, attempts: 3, plan: plan) == .exhaust)
        }
    }

    @Test("Retry-After wins when it asks for longer than the backoff")
    func retryAfter() {
        #expect(DeliveryDecision.after(status: .serviceUnavailable, retryAfter: .seconds(30), attempts: 1, plan: plan) == .retry(after: .seconds(30)))
        #expect(DeliveryDecision.after(status: .serviceUnavailable, retryAfter: .milliseconds(1), attempts: 2, plan: plan) == .retry(after: .seconds(1)))
    }

    @Test("no connection is retried, cancellation stops, anything else cannot be sent")
    func errors() {
        #expect(DeliveryDecision.after(error: CourierError(.notConnected), attempts: 1, plan: plan) == .retry(after: .milliseconds(500)))
        #expect(DeliveryDecision.after(error: CourierError(.timedOut), attempts: 3, plan: plan) == .exhaust)
        #expect(DeliveryDecision.after(error: CourierError(.cancelled), attempts: 1, plan: plan) == .stop)
        #expect(DeliveryDecision.after(error: CourierError(.fileAccessFailed), attempts: 1, plan: plan) == .markUnsendable)
    }
}
#endif
