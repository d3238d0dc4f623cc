import Foundation

/// What a request asked the reference server to do wrong, from an `X-Fault` header or a `_fault`
/// query item: comma-separated directives such as `delay=5000`, `status=503`,
/// `status=500,message=Database unavailable`, `close`, `reset`, `truncate`, `trickle=100`,
/// `malformed`, `wrong-shape`, `wrong-content-type`, `empty`, `no-content`, `huge=10000000`,
/// `unannounced` (with `huge`: no `Content-Length`, the body arrives chunked), `compress=gzip` or
/// `compress=deflate` (whatever the request accepted), `gzip-bomb=1073741824`.
struct Fault: Sendable, Equatable {
    /// Wait this long before handling the request.
    var delay: Duration?
    /// Answer with this status (and an error body in the backend's format) instead of the route's.
    var status: Int?
    /// The message of that error body.
    var message: String?
    /// Close the connection without answering.
    var close = false
    /// Send part of the body (no declared length) and then drop the connection.
    var reset = false
    /// Declare the full `Content-Length`, send half the body, then close.
    var truncate = false
    /// Send the body one byte at a time, this long apart.
    var trickleInterval: Duration?
    /// Replace the body with broken JSON.
    var malformed = false
    /// Replace the body with valid JSON that has none of the expected fields.
    var wrongShape = false
    /// Send the body as `text/html`.
    var wrongContentType = false
    /// Send a 200 with no body.
    var empty = false
    /// Send a 204 with no body.
    var noContent = false
    /// Send a 200 JSON body of this many bytes.
    var hugeSize: Int?
    /// Send the huge body without a `Content-Length` (chunked), so a client only learns its size
    /// by reading it.
    var unannounced = false
    /// Compress the body with this coding whatever the request's `Accept-Encoding` says.
    var coding: ContentCoding?
    /// Send this many zero bytes as a gzip body (a compression bomb).
    var gzipBombSize: Int?

    /// Parses directives; unknown ones are ignored. `nil` when there is none.
    init?(_ text: String?) {
        guard let text, !text.isEmpty else { return nil }
        for directive in text.split(separator: ",") {
            let pair = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let value = pair.count == 2 ? pair[1] : nil
            switch pair[0].lowercased() {
            case "delay": delay = value.flatMap(Int.init).map { .milliseconds($0) }
            case "status": status = value.flatMap(Int.init)
            case "message": message = value
            case "close": close = true
            case "reset": reset = true
            case "trickle": trickleInterval = .milliseconds(value.flatMap(Int.init) ?? 100)
            case "wrong-shape": wrongShape = true
            case "no-content": noContent = true
            case "truncate": truncate = true
            case "malformed": malformed = true
            case "wrong-content-type": wrongContentType = true
            case "empty": empty = true
            case "huge": hugeSize = value.flatMap(Int.init)
            case "unannounced": unannounced = true
            case "compress": coding = ContentCoding(rawValue: value?.lowercased() ?? "gzip") ?? .gzip
            case "gzip-bomb": gzipBombSize = value.flatMap(Int.init)
            default: break
            }
        }
    }
}
