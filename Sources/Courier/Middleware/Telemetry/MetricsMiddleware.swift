import Foundation
import HTTPTypes
import Metrics
import OpenAPIRuntime

/// Records every exchange through swift-metrics: a counter and a timer per endpoint and status
/// class (`2xx`…`5xx`, or `error` with the error's kind).
///
/// | metric | type | dimensions |
/// | --- | --- | --- |
/// | `courier_requests_total` | counter | `endpoint`, `status` |
/// | `courier_request_duration` | timer | `endpoint`, `status` |
///
/// Bootstrap a metrics backend (Prometheus, StatsD, OpenTelemetry…) once in the app; without one
/// the calls cost next to nothing.
public struct MetricsMiddleware: Middleware {
    /// Prefix of the metric labels.
    public let prefix: String
    private let factory: (any MetricsFactory)?

    /// Creates the middleware.
    /// - Parameter prefix: Prefix of the metric labels; `"courier"` by default.
    public init(prefix: String = "courier") {
        self.prefix = prefix
        self.factory = nil
    }

    /// Creates the middleware reporting to a factory of its own instead of the global one (tests).
    package init(prefix: String = "courier", factory: any MetricsFactory) {
        self.prefix = prefix
        self.factory = factory
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        let started = ContinuousClock.now
        do {
            let result = try await next(request, body, context)
            record(endpoint: context.name, status: "\(result.status.code / 100)xx", since: started)
            return result
        } catch {
            record(endpoint: context.name, status: "error", kind: "\(CourierError(error).kind)", since: started)
            throw error
        }
    }

    private func record(endpoint: String, status: String, kind: String? = nil, since started: ContinuousClock.Instant) {
        var dimensions = [("endpoint", endpoint), ("status", status)]
        if let kind { dimensions.append(("kind", kind)) }
        let nanoseconds = (ContinuousClock.now - started).wholeNanoseconds
        if let factory {
            Counter(label: "\(prefix)_requests_total", dimensions: dimensions, factory: factory).increment()
            Metrics.Timer(label: "\(prefix)_request_duration", dimensions: dimensions, factory: factory)
                .recordNanoseconds(nanoseconds)
        } else {
            Counter(label: "\(prefix)_requests_total", dimensions: dimensions).increment()
            Metrics.Timer(label: "\(prefix)_request_duration", dimensions: dimensions).recordNanoseconds(nanoseconds)
        }
    }
}
