import HTTPTypes
import Instrumentation
import OpenAPIRuntime
import Tracing

/// Wraps every exchange in a client span of swift-distributed-tracing and injects the span's
/// context into the request (`traceparent`/`tracestate` with a W3C propagator such as swift-otel's),
/// so the backend's spans join the app's trace.
///
/// The span is named after the endpoint and carries the OpenTelemetry HTTP attributes
/// (`http.request.method`, `server.address`, `url.template`, `http.response.status_code`); a 5xx or a
/// failure marks it as an error.
///
/// ```swift
/// InstrumentationSystem.bootstrap(otelTracer)   // once, in the app
/// $0.middleware = [TracingMiddleware()]
/// ```
public struct TracingMiddleware: Middleware {
    private let tracer: (any Tracer)?

    /// Creates the middleware using the tracer bootstrapped in `InstrumentationSystem`.
    public init() {
        self.tracer = nil
    }

    /// Creates the middleware using a tracer of its own.
    /// - Parameter tracer: The tracer.
    public init(tracer: any Tracer) {
        self.tracer = tracer
    }

    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        let tracer: any Tracer = self.tracer ?? InstrumentationSystem.tracer
        return try await Self.trace(tracer, request, body: body, context: context, next: next)
    }

    private static func trace<T: Tracer>(
        _ tracer: T,
        _ request: HTTPRequest,
        body: HTTPBody?,
        context: MiddlewareContext,
        next: MiddlewareNext
    ) async throws -> MiddlewareResponse {
        try await tracer.withSpan(context.name, ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["server.address"] = request.authority
            // The template, not the path: a value in the path (a reset code) must not reach traces.
            span.attributes["url.template"] = Self.template(of: context.name)
            span.attributes["courier.attempt"] = context.attempt
            var traced = request
            tracer.inject(span.context, into: &traced.headerFields, using: HTTPFieldsInjector())
            let result = try await next(traced, body, context)
            span.attributes["http.response.status_code"] = result.status.code
            if let version = result.httpVersion.protocolVersion {
                span.attributes["network.protocol.name"] = "http"
                span.attributes["network.protocol.version"] = version
            }
            if result.status.kind == .serverError {
                span.setStatus(SpanStatus(code: .error, message: "\(result.status.code)"))
            }
            return result
        }
    }

    /// The path part of an endpoint's name (`GET movie/{}/videos` → `movie/{}/videos`).
    private static func template(of name: String) -> String {
        guard let space = name.firstIndex(of: " ") else { return name }
        return String(name[name.index(after: space)...])
    }
}

/// Writes trace context into header fields.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
