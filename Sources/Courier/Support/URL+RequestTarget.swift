import Foundation

extension URL {
    /// The request target of this URL (RFC 9112 §3.2.1, origin form): its path, percent-encoded
    /// as written and `/` when empty, and its query.
    var requestTarget: String {
        var target = path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = query(percentEncoded: true) { target += "?\(query)" }
        return target
    }
}
