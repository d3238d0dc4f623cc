import Foundation
import HTTPTypes

/// The request that follows a redirect response: a pure decision, no I/O.
struct Redirect: Equatable {
    /// The next request: the same fields, minus credentials when the origin changes.
    var request: HTTPRequest
    /// Scheme, host and port of the next request.
    var origin: URL
    /// `true` when the body is not sent again (the method became GET).
    var dropsBody: Bool

    static let statuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Fields that carry credentials and never go to another origin.
    static let credentialFields: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]

    /// The redirect `response` asks for, or `nil` when it is not one Courier follows (no
    /// `Location`, or a method-preserving redirect whose body cannot be sent again).
    /// - Throws: ``CourierError/Kind/invalidResponse`` for a `Location` that is not an http(s) URL.
    static func next(
        after response: HTTPResponse,
        to request: HTTPRequest,
        origin: URL,
        bodyIsReplayable: Bool
    ) throws(CourierError) -> Redirect? {
        guard statuses.contains(response.status.code), let location = response.headerFields[.location] else { return nil }
        guard let current = URL(string: origin.absoluteString + (request.path ?? "/")),
            let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = target.host, !host.isEmpty
        else {
            var error = CourierError(.invalidResponse, message: "The server redirected to \"\(location)\", which is not an http(s) URL.")
            error.status = response.status
            throw error
        }
        var next = request
        // swift-format-ignore
        let changesToGET = response.status.code == 303 && request.method != .head
            || [301, 302].contains(response.status.code) && request.method == .post
        if changesToGET {
            next.method = .get
            for name in [HTTPField.Name.contentType, .contentLength, .contentEncoding, .transferEncoding] {
                next.headerFields[name] = nil
            }
        } else if !bodyIsReplayable {
            return nil
        }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let authority = target.port.map { "\(hostPart):\($0)" } ?? hostPart
        var path = target.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = target.query(percentEncoded: true) { path += "?\(query)" }
        next.scheme = scheme
        next.authority = authority
        next.path = path
        guard let nextOrigin = URL(string: "\(scheme)://\(authority)") else {
            throw CourierError(.invalidResponse, message: "The server redirected to \"\(location)\", which has no valid origin.")
        }
        if !sameOrigin(origin, nextOrigin) {
            for name in credentialFields { next.headerFields[name] = nil }
        }
        return Redirect(request: next, origin: nextOrigin, dropsBody: changesToGET)
    }

    /// Same scheme, host and port (default ports made explicit).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func parts(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return parts(a) == parts(b)
    }
}
