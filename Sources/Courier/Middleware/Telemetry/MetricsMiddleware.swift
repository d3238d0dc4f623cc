import Foundation
import HTTPTypes
import Metrics
import OpenAPIRuntime

/// Records every exchange through swift-metrics: a counter and a timer per endpoint and status
/// class (`2xx`…`5xx`, or `error` with the error's kind), with the version of HTTP that carried
/// the response (`1.1`, `2`, `3`, or `unknown`), and the wait for the response's first byte where
/// the transport measured it (``ExchangeTimings/responseStarted``).
///
/// | metric | type | dimensions |
/// | --- | --- | --- |
/// | `courier_requests_total` | counter | `endpoint`, `status`, `http_version` (or `kind` for an error) |
/// | `courier_request_duration` | timer | the same |
/// | `courier_response_first_byte` | timer | `endpoint`, `status`, `http_version` |
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
            let version = result.httpVersion.protocolVersion ?? "unknown"
            record(endpoint: context.name, status: "\(result.status.code / 100)xx", version: version, since: started)
            if let firstByte = result.timings?.responseStarted {
                let dimensions = [("endpoint", context.name), ("status", "\(result.status.code / 100)xx"), ("http_version", version)]
                timer("response_first_byte", dimensions).recordNanoseconds(firstByte.wholeNanoseconds)
            }
            return result
        } catch {
            record(endpoint: context.name, status: "error", kind: "\(CourierError(error).kind)", since: started)
            throw error
        }
    }

    private func record(endpoint: String, status: String, version: String? = nil, kind: String? = nil, since started: ContinuousClock.Instant) {
        var dimensions = [("endpoint", endpoint), ("status", status)]
        if let version { dimensions.append(("http_version", version)) }
        if let kind { dimensions.append(("kind", kind)) }
        let nanoseconds = (ContinuousClock.now - started).wholeNanoseconds
        if let factory {
            Counter(label: "\(prefix)_requests_total", dimensions: dimensions, factory: factory).increment()
        } else {
            Counter(label: "\(prefix)_requests_total", dimensions: dimensions).increment()
        }
        timer("request_duration", dimensions).recordNanoseconds(nanoseconds)
    }

    /// The timer `<prefix>_<name>`, from the middleware's factory or the global one.
    private func timer(_ name: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        if let factory { return Metrics.Timer(label: "\(prefix)_\(name)", dimensions: dimensions, factory: factory) }
        return Metrics.Timer(label: "\(prefix)_\(name)", dimensions: dimensions)
    }
}
