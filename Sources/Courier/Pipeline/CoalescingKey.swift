import Foundation
import HTTPTypes

/// What makes two requests identical for ``RequestCoalescer``: method, URL, and every header
/// field as sent (`Authorization`, `Cookie`, `Accept`, `Accept-Language`, `Accept-Encoding`, any
/// a `Vary` may name, every credential field), except the fields that only identify one request
/// for tracing and logs (`traceparent`, `X-Request-ID`, …).
struct CoalescingKey: Sendable, Hashable {
    let method: HTTPRequest.Method
    let target: String
    let fields: [String]

    init(_ request: HTTPRequest, origin: URL) {
        method = request.method
        target = origin.absoluteString + (request.path ?? "/")
        var fields: [String] = []
        fields.reserveCapacity(request.headerFields.count)
        for field in request.headerFields where !Self.perRequestFields.contains(field.name) {
            fields.append(field.name.canonicalName + ":" + field.value)
        }
        fields.sort()
        self.fields = fields
    }

    /// Fields that name one request for tracing and logs, not what it asks for.
    static let perRequestFields: Set<HTTPField.Name> = Set(
        ["traceparent", "tracestate", "baggage", "X-Request-ID", "X-Correlation-ID", "X-B3-TraceId", "X-B3-SpanId", "b3", "X-Amzn-Trace-Id"]
            .compactMap { HTTPField.Name($0) }
    )
}
