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

    /// The redirect `response` asks for, or `nil` when it is not one Courier follows (no
    /// `Location`, or a method-preserving redirect whose body cannot be sent again).
    /// - Parameters:
    ///   - hasBody: Whether the request carries a body.
    ///   - credentialFields: Fields dropped when the target is another origin.
    ///   - allowsInsecure: Whether https may continue as plain http (never with a body).
    ///   - allowsCrossOriginBody: Whether a 307 or 308 may take the body to another origin.
    /// - Throws: ``CourierError/Kind/invalidResponse`` for a `Location` that is not an http(s) URL
    ///   with a port from 1 to 65535; ``CourierError/Kind/insecureRedirect`` from https to http;
    ///   ``CourierError/Kind/unexpectedStatus`` for a 307 or 308 that would take a body to another
    ///   origin without `allowsCrossOriginBody`.
    static func next(
        after response: HTTPResponse,
        to request: HTTPRequest,
        origin: URL,
        hasBody: Bool = false,
        bodyIsReplayable: Bool,
        credentialFields: CredentialFields = .default,
        allowsInsecure: Bool = false,
        allowsCrossOriginBody: Bool = false
    ) throws(CourierError) -> Redirect? {
        guard statuses.contains(response.status.code), let location = response.headerFields.value(of: .location) else { return nil }
        func refusal(_ kind: CourierError.Kind, _ message: String) -> CourierError {
            var error = CourierError(kind, message: message)
            error.status = response.status
            return error
        }
        guard let current = URL(string: origin.absoluteString + (request.path ?? "/")),
            let target = URL(string: location, relativeTo: current)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = target.host, !host.isEmpty
        else {
            throw refusal(.invalidResponse, "The server redirected to an address that is not an http(s) URL.")
        }
        if let port = target.port, !(1...65535).contains(port) {
            throw refusal(.invalidResponse, "The server redirected to port \(port), which does not exist.")
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
        if origin.scheme?.lowercased() == "https" && scheme == "http" {
            guard allowsInsecure else {
                throw refusal(.insecureRedirect, "The server redirected from https to plain http; the request was not sent there.")
            }
            guard changesToGET || request.method == .get || request.method == .head else {
                throw refusal(.insecureRedirect, "The server redirected a request with a body from https to plain http.")
            }
        }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let authority = target.port.map { "\(hostPart):\($0)" } ?? hostPart
        next.scheme = scheme
        next.authority = authority
        next.path = target.requestTarget
        guard let nextOrigin = URL(string: "\(scheme)://\(authority)") else {
            throw refusal(.invalidResponse, "The server redirected to an address with no valid origin.")
        }
        if !sameOrigin(origin, nextOrigin) {
            // A body can hold credentials too (a password, a payment): it leaves its origin only
            // when the app says so.
            guard changesToGET || !hasBody || allowsCrossOriginBody else {
                throw refusal(
                    .unexpectedStatus,
                    "The server redirected a request with a body to another origin (\(scheme)://\(authority)); the body was not sent there."
                )
            }
            for name in credentialFields.headerNames { next.headerFields[name] = nil }
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
