import Foundation

/// The start of one exchange, taken when a transport begins it, and the stages measured from it:
/// how transports fill a response's ``ExchangeTimings``.
package struct ExchangeStopwatch: Sendable {
    /// The start, on the clock stages are measured by.
    package let start: ContinuousClock.Instant

    /// Starts now.
    package init() {
        self.start = .now
    }

    /// The start by the wall clock, read back from now: one reading of the wall clock per
    /// exchange that reports timings, none for one that does not.
    package var startDate: Date {
        let elapsed = ContinuousClock.now - start
        return Date(timeIntervalSinceNow: -(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
    }

    /// The timings of the stages seen at these instants; each is kept no earlier than the stage
    /// before it, so the order holds whatever order the callbacks ran in.
    /// - Parameters:
    ///   - sent: When the request was written, if the transport tells.
    ///   - firstByte: When the response's head arrived.
    ///   - end: When the body had arrived whole; `nil` while it streams.
    /// - Returns: The timings, with no connection facts.
    package func timings(
        sent: ContinuousClock.Instant?,
        firstByte: ContinuousClock.Instant?,
        end: ContinuousClock.Instant?
    ) -> ExchangeTimings {
        let requestSent = sent.map { max(.zero, $0 - start) }
        let responseStarted = firstByte.map { max(requestSent ?? .zero, $0 - start) }
        let responseEnded = end.map { max(responseStarted ?? requestSent ?? .zero, $0 - start) }
        return ExchangeTimings(startDate: startDate, requestSent: requestSent, responseStarted: responseStarted, responseEnded: responseEnded)
    }
}
