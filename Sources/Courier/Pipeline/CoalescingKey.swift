import Foundation
import HTTPTypes

/// What makes two requests identical for ``RequestCoalescer``: method, URL, and every header
/// field as sent (`Authorization`, `Cookie`, `Accept`, `Accept-Language`, `Accept-Encoding`, any
/// a `Vary` may name, every credential field), except the fields that only identify one request
/// for tracing and logs (`traceparent`, `X-Request-ID`, …).
///
/// A reference, so that the key an exchange is filed under finds itself by identity when the
/// exchange ends, without comparing every field.
final class CoalescingKey: Sendable, Hashable {
    let method: HTTPRequest.Method
    let target: String
    /// The request's fields but those naming it for tracing, compared in order: requests built
    /// from one endpoint list their fields in one order (a reordered copy is merely not joined).
    let fields: HTTPFields
    /// The hash of all three, computed once: the key is looked up several times per call.
    private let digest: Int

    init(_ request: HTTPRequest, origin: URL) {
        method = request.method
        target = origin.absoluteString + (request.path ?? "/")
        // One pass over the fields; a copy only when one of them names the request.
        let sent = request.headerFields
        if sent.contains(where: { Self.perRequestFields.contains($0.name) }) {
            var fields = HTTPFields()
            fields.append(contentsOf: sent.lazy.filter { !Self.perRequestFields.contains($0.name) })
            self.fields = fields
        } else {
            self.fields = sent
        }
        var hasher = Hasher()
        hasher.combine(method)
        hasher.combine(target)
        hasher.combine(fields.count)
        // Names and values as strings: `HTTPField`'s own hash feeds the value one byte at a time.
        for field in fields {
            hasher.combine(field.name.canonicalName)
            hasher.combine(field.value)
        }
        digest = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    static func == (a: CoalescingKey, b: CoalescingKey) -> Bool {
        a === b || a.digest == b.digest && a.method == b.method && a.target == b.target && a.fields.elementsEqual(b.fields)
    }

    /// Fields that name one request for tracing and logs, not what it asks for.
    static let perRequestFields: Set<HTTPField.Name> = Set(
        ["traceparent", "tracestate", "baggage", "X-Request-ID", "X-Correlation-ID", "X-B3-TraceId", "X-B3-SpanId", "b3", "X-Amzn-Trace-Id"]
            .compactMap { HTTPField.Name($0) }
    )
}
