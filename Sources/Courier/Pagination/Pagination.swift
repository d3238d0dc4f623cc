import Foundation
import HTTPTypes

/// How a paged endpoint's next page is found: from the decoded page (a page number or a cursor)
/// or from the response's `Link: <…>; rel="next"` field.
///
/// ```swift
/// let pages = client.pages(MovieAPI.popular(page: 1), by: .pageNumber(current: \.page, total: \.totalPages))
/// ```
public struct Pagination<Page: Sendable>: Sendable {
    /// The request for the page after `page` (which `request` fetched), or `nil` after the last.
    let next: @Sendable (_ request: Request<Page>, _ page: DecodedResponse<Page>) throws(CourierError) -> Request<Page>?

    /// A pagination of your own.
    /// - Parameter next: The request for the page after the one a request fetched, or `nil` after
    ///   the last. Throw a ``CourierError`` to end the sequence with it.
    public init(next: @escaping @Sendable (_ request: Request<Page>, _ page: DecodedResponse<Page>) throws(CourierError) -> Request<Page>?) {
        self.next = next
    }

    /// Numbered pages (TMDB's `page` and `total_pages`): the next request sets the query parameter
    /// `parameter` to the page after the current one, until the total is reached.
    /// - Parameters:
    ///   - parameter: The query parameter that carries the page number.
    ///   - current: The page's own number.
    ///   - total: The number of pages, when the page says.
    /// - Returns: The pagination.
    public static func pageNumber(
        _ parameter: String = "page",
        current: @escaping @Sendable (Page) -> Int,
        total: @escaping @Sendable (Page) -> Int?
    ) -> Pagination {
        Pagination { request, page in
            let number = current(page.value)
            guard total(page.value).map({ number < $0 }) ?? true, number < .max else { return nil }
            var next = request
            next.query.set(parameter, .text(String(number + 1)))
            return next
        }
    }

    /// A cursor: the next request sets the query parameter `parameter` to the page's cursor, until
    /// a page has none (or an empty one).
    /// - Parameters:
    ///   - parameter: The query parameter that carries the cursor.
    ///   - cursor: The page's cursor for the page after it.
    /// - Returns: The pagination.
    public static func cursor(_ parameter: String, from cursor: @escaping @Sendable (Page) -> String?) -> Pagination {
        Pagination { request, page in
            guard let value = cursor(page.value), !value.isEmpty else { return nil }
            var next = request
            next.query.set(parameter, .text(value))
            return next
        }
    }

    /// The response's `Link` field (RFC 8288): the target of `rel="next"`, resolved against the
    /// response's URL. A target on another origin (scheme, host and port, so plain http from
    /// https too) is refused: the page that carries it is delivered, and the sequence then throws
    /// ``CourierError/Kind/invalidResponse`` naming the refused origin. The request's own query
    /// parameters that the target does not set are kept.
    public static var link: Pagination {
        Pagination { request, page throws(CourierError) in
            let links = page.headerFields[values: .link].flatMap { WebLink.links(in: $0) }
            guard let next = links.first(where: { $0.relations.contains("next") }) else { return nil }
            return try request.following(next.target, from: page.url)
        }
    }
}

extension Request {
    /// This request sent to `target` (a URI reference from a response at `url`) instead, on the
    /// same origin only.
    func following(_ target: String, from url: URL) throws(CourierError) -> Request {
        guard let resolved = URL(string: target, relativeTo: url)?.absoluteURL,
            let components = URLComponents(url: resolved, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else {
            throw CourierError(.invalidResponse, message: "The server's next page is not an http(s) address.")
        }
        guard Redirect.sameOrigin(url, resolved) else {
            let target = Self.origin(of: resolved)
            let insecure = url.scheme?.lowercased() == "https" && scheme == "http"
            let why = insecure ? "plain http, where this list came over https" : "another origin than this list's (\(Self.origin(of: url)))"
            throw CourierError(.invalidResponse, message: "The server's next page is at \(target), \(why); it was not requested.")
        }
        var origin = URLComponents()
        origin.scheme = scheme
        origin.host = host
        origin.port = components.port
        guard let base = origin.url else {
            throw CourierError(.invalidResponse, message: "The server's next page has no valid origin.")
        }
        var next = self
        next.baseURL = BaseURL(base)
        next.path = Path(segments: resolved.pathComponents.filter { $0 != "/" })
        var query = QueryParameters((components.queryItems ?? []).map { ($0.name, QueryValue.text($0.value ?? "")) })
        query.addMissing(from: self.query)
        next.query = query
        return next
    }

    /// `scheme://host:port` of `url`, without its path, query or user info.
    private static func origin(of url: URL) -> String {
        let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        return "\(url.scheme?.lowercased() ?? "")://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
