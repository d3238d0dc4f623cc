import Foundation
import HTTPTypes

/// The pages of a paged endpoint, fetched lazily one at a time: from
/// ``Client/pages(_:by:maximumPages:)``.
///
/// ```swift
/// for try await page in client.pages(MovieAPI.popular(page: 1), by: .pageNumber(current: \.page, total: \.totalPages)) {
///     show(page.results)
/// }
/// ```
/// Each page goes through the client's middleware, so rate limiting paces them and cancelling the
/// task stops the next fetch. The sequence ends after the last page, after `maximumPages`, or when
/// the next page would be one already fetched.
public struct PageSequence<Page: Sendable>: AsyncSequence, Sendable {
    let first: Request<Page>
    let pagination: Pagination<Page>
    let maximumPages: Int
    /// The address a page request goes to, as the client builds it, whether it came from the
    /// endpoint or from a server's `Link`: what makes two page requests the same page.
    let address: @Sendable (Request<Page>) -> String?
    let fetch: @Sendable (Request<Page>) async throws(CourierError) -> DecodedResponse<Page>

    /// Creates an iterator; each iterator starts at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self, next: first)
    }

    /// Fetches one page per call.
    public struct Iterator: AsyncIteratorProtocol {
        let sequence: PageSequence
        var next: Request<Page>?
        var fetched = 0
        var seen: Set<String> = []
        /// Why the page after the one last delivered cannot be fetched (a refused `Link`): thrown
        /// by the next call, after that page was delivered.
        var refusal: CourierError?

        /// The next page, or `nil` after the last.
        ///
        /// A page is always delivered once fetched: when the way to the page after it is refused
        /// (a `Link` to another origin), the page comes first and the refusal is thrown by the
        /// following call.
        /// - Throws: ``CourierError``.
        public mutating func next() async throws(CourierError) -> Page? {
            if let refusal {
                self.refusal = nil
                guard fetched < sequence.maximumPages else { return nil }
                throw refusal
            }
            guard let request = next, fetched < sequence.maximumPages else { return nil }
            next = nil
            if let address = sequence.address(request) { seen.insert(address) }
            let page = try await sequence.fetch(request)
            fetched += 1
            do {
                if let following = try sequence.pagination.next(request, page), !(sequence.address(following).map(seen.contains) ?? false) {
                    next = following
                }
            } catch {
                refusal = error
            }
            return page.value
        }
    }

}

extension Client {
    /// The pages of a paged endpoint, fetched lazily one at a time, starting with `endpoint`.
    ///
    /// ```swift
    /// let pages = client.pages(Request<RepoPage>(.get, "repos"), by: .link)
    /// for try await page in pages { show(page.repos) }
    /// ```
    /// - Parameters:
    ///   - endpoint: The first page's call.
    ///   - pagination: How the next page is found.
    ///   - maximumPages: The most pages fetched, 1,000 by default.
    /// - Returns: The pages, as an `AsyncSequence` whose errors are ``CourierError``s.
    public func pages<E: Endpoint>(
        _ endpoint: E,
        by pagination: Pagination<E.Response>,
        maximumPages: Int = 1000
    ) -> PageSequence<E.Response> {
        PageSequence(
            first: endpoint.request,
            pagination: pagination,
            maximumPages: maximumPages,
            address: { request in
                guard let prepared = try? self.prepare(request) else { return nil }
                return prepared.origin.absoluteString + (prepared.request.path ?? "/")
            },
            fetch: { request async throws(CourierError) in try await self.response(for: request) }
        )
    }

    /// The items of every page of a paged endpoint, fetched lazily a page at a time.
    ///
    /// ```swift
    /// for try await movie in client.items(MovieAPI.popular(page: 1), by: pagination, of: \.results) {
    ///     print(movie.title)
    /// }
    /// ```
    /// - Parameters:
    ///   - endpoint: The first page's call.
    ///   - pagination: How the next page is found.
    ///   - maximumPages: The most pages fetched, 1,000 by default.
    ///   - items: A page's items.
    /// - Returns: The items in page order, as an `AsyncSequence` whose errors are ``CourierError``s.
    public func items<E: Endpoint, Item: Sendable>(
        _ endpoint: E,
        by pagination: Pagination<E.Response>,
        maximumPages: Int = 1000,
        of items: @escaping @Sendable (E.Response) -> [Item]
    ) -> ItemSequence<E.Response, Item> {
        ItemSequence(pages: pages(endpoint, by: pagination, maximumPages: maximumPages), items: items)
    }
}

/// The items of every page of a paged endpoint: from ``Client/items(_:by:maximumPages:of:)``.
public struct ItemSequence<Page: Sendable, Item: Sendable>: AsyncSequence, Sendable {
    let pages: PageSequence<Page>
    let items: @Sendable (Page) -> [Item]

    /// Creates an iterator; each iterator starts at the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator(), items: items)
    }

    /// Hands out a page's items, then fetches the next page.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: PageSequence<Page>.Iterator
        let items: @Sendable (Page) -> [Item]
        var buffer: [Item] = []
        var index = 0

        /// The next item, or `nil` after the last page's last item.
        /// - Throws: ``CourierError``.
        public mutating func next() async throws(CourierError) -> Item? {
            while index == buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = items(page)
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }
    }
}
