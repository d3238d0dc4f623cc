import Foundation

/// Where a backend lives: scheme, host, optional port and base path, e.g.
/// `https://api.themoviedb.org/3`.
///
/// Written as a string literal, so no force-unwrapped Foundation URL is ever needed. It is
/// checked when a request is built: a base URL without `http`/`https` or without a host fails that
/// request with ``CourierError/Kind/invalidRequest``, it never crashes.
///
/// ```swift
/// let local: BaseURL = "http://127.0.0.1:8080/api/v1"
/// ```
public struct BaseURL: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The text as given.
    public let text: String
    /// Why there is no usable URL (e.g. a backend without a URL for the chosen environment).
    let unavailableReason: String?
    /// The parts, checked once here rather than on every request.
    private let parsed: Result<Parts, CourierError>

    /// Creates a base URL from text.
    /// - Parameter text: An absolute `http` or `https` URL, with or without a path.
    public init(_ text: String) {
        self.text = text
        self.unavailableReason = nil
        self.parsed = Result { () throws(CourierError) in try Self.parse(text) }
    }

    /// Creates a base URL from a Foundation `URL`.
    public init(_ url: URL) {
        self.init(url.absoluteString)
    }

    /// Creates a base URL from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// A base URL that fails every request with `reason`.
    init(unavailable reason: String) {
        self.text = ""
        self.unavailableReason = reason
        self.parsed = .failure(CourierError(.invalidRequest, message: reason))
    }

    /// Compares the text (and the reason a URL is unavailable).
    public static func == (lhs: BaseURL, rhs: BaseURL) -> Bool {
        lhs.text == rhs.text && lhs.unavailableReason == rhs.unavailableReason
    }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(unavailableReason)
    }

    /// The text as given, with any userinfo (`user:password@`) hidden.
    public var description: String { ErrorText.redactingURLs(in: text) }

    /// The checked parts of the URL, parsed once; a request takes one reference to them rather
    /// than copying four reference-counted values.
    final class Parts: Sendable {
        /// `http` or `https`.
        let scheme: String
        /// `host` or `host:port`, IPv6 hosts in brackets.
        let authority: String
        /// The base path without a trailing `/`; empty for the root.
        let path: String
        /// `scheme://authority`, what the transport resolves request paths against.
        let origin: URL

        init(scheme: String, authority: String, path: String, origin: URL) {
            self.scheme = scheme
            self.authority = authority
            self.path = path
            self.origin = origin
        }
    }

    /// The checked parts of the URL.
    /// - Throws: ``CourierError`` of kind `invalidRequest` when it is not an absolute HTTP URL.
    func parts() throws(CourierError) -> Parts {
        try parsed.get()
    }

    private static func parse(_ given: String) throws(CourierError) -> Parts {
        let text = ErrorText.redactingURLs(in: given)
        guard let components = URLComponents(string: given) else {
            throw CourierError(.invalidRequest, message: "The base URL \"\(text)\" is not a valid URL.")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw CourierError(.invalidRequest, message: "The base URL \"\(text)\" needs an http or https scheme.")
        }
        guard let host = components.percentEncodedHost, !host.isEmpty else {
            throw CourierError(.invalidRequest, message: "The base URL \"\(text)\" has no host.")
        }
        guard components.percentEncodedQuery == nil, components.fragment == nil else {
            throw CourierError(
                .invalidRequest,
                message: "The base URL \"\(text)\" has a query or fragment; use common parameters instead."
            )
        }
        var authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = components.port {
            guard (1...65535).contains(port) else {
                throw CourierError(.invalidRequest, message: "The base URL's port \(port) does not exist; ports go from 1 to 65535.")
            }
            authority += ":\(port)"
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        guard let origin = URL(string: "\(scheme)://\(authority)") else {
            throw CourierError(.invalidRequest, message: "The base URL's host \"\(authority)\" is not valid.")
        }
        return Parts(scheme: scheme, authority: authority, path: path, origin: origin)
    }
}
