import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What URLSession's task metrics say of a task's last transaction: the protocol, whether the
/// connection was reused, and when each stage happened. Apple platforms deliver the metrics
/// with the task's end, usually just before it (Apple documents no order): metrics that come
/// after the end are not waited for, and that response's version is unknown.
/// swift-corelibs-foundation never delivers them, and a task there reports only what Courier's
/// delegate sees (the head's arrival, the end).
struct TransactionTimeline: Sendable, Equatable {
    var protocolName: String?
    var isReusedConnection: Bool
    var domainLookup: DateInterval? = nil
    var connect: DateInterval? = nil
    var secureConnection: DateInterval? = nil
    var requestEnd: Date? = nil
    var responseStart: Date? = nil
    var responseEnd: Date? = nil

    private static func interval(_ start: Date?, _ end: Date?) -> DateInterval? {
        guard let start, let end, start <= end else { return nil }
        return DateInterval(start: start, end: end)
    }

    /// The version of HTTP the transaction used.
    var httpVersion: HTTPProtocolVersion { HTTPProtocolVersion(protocolName: protocolName) }

    /// `measured` with what the metrics add: the stages by their dates, measured from the same
    /// start, and the connection's facts. A stage the metrics lack keeps Courier's own figure.
    func refining(_ measured: ExchangeTimings) -> ExchangeTimings {
        var timings = measured
        func offset(_ date: Date?) -> Duration? {
            date.map { max(.zero, Duration.seconds($0.timeIntervalSince(measured.startDate))) }
        }
        timings.requestSent = offset(requestEnd) ?? measured.requestSent
        timings.responseStarted = offset(responseStart).map { max($0, timings.requestSent ?? .zero) } ?? measured.responseStarted
        if measured.responseEnded != nil {
            timings.responseEnded = offset(responseEnd).map { max($0, timings.responseStarted ?? .zero) } ?? measured.responseEnded
        }
        timings.domainLookup = domainLookup.map { .seconds($0.duration) }
        timings.connect = connect.map { .seconds($0.duration) }
        timings.secureConnection = secureConnection.map { .seconds($0.duration) }
        timings.reusedConnection = isReusedConnection
        return timings
    }
}

extension TransactionTimeline {
    /// The timeline of `metrics`' last transaction, or `nil` when it has none.
    init?(_ metrics: URLSessionTaskMetrics) {
        guard let last = metrics.transactionMetrics.last else { return nil }
        self.init(
            protocolName: last.networkProtocolName,
            isReusedConnection: last.isReusedConnection,
            domainLookup: Self.interval(last.domainLookupStartDate, last.domainLookupEndDate),
            connect: Self.interval(last.connectStartDate, last.connectEndDate),
            secureConnection: Self.interval(last.secureConnectionStartDate, last.secureConnectionEndDate),
            requestEnd: last.requestEndDate,
            responseStart: last.responseStartDate,
            responseEnd: last.responseEndDate
        )
    }
}

/// What Courier's delegate saw of one task, for its response's version and timings: when the
/// head arrived, when the task ended, and the task metrics where the platform delivers them.
struct TaskObservation: Sendable {
    var firstByte: ContinuousClock.Instant?
    var end: ContinuousClock.Instant?
    var transaction: TransactionTimeline?

    /// The version and timings of the exchange that began at `stopwatch`'s start.
    func report(from stopwatch: ExchangeStopwatch) -> (HTTPProtocolVersion, ExchangeTimings) {
        let measured = stopwatch.timings(sent: nil, firstByte: firstByte, end: end)
        guard let transaction else { return (.unknown, measured) }
        return (transaction.httpVersion, transaction.refining(measured))
    }
}
