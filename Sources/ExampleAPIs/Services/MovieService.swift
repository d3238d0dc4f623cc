import Courier

/// Movie lists and videos from TheMovieDB-shaped backend.
///
/// ```swift
/// let movies = MovieService(client: .movies(environment: .production, apiKey: key))
/// var page = try await movies.popular()
/// while let next = page.nextPage, next <= 3 { page = try await movies.popular(page: next) }
/// ```
public struct MovieService: Sendable {
    /// The movie backend's client.
    public let client: Client

    /// Creates the service.
    /// - Parameter client: The movie backend's client (see ``Courier/Client/movies(environment:apiKey:transport:)``).
    public init(client: Client) {
        self.client = client
    }

    /// A page of the most popular movies.
    public func popular(page: Int = 1) async throws(CourierError) -> MovieApiResponse {
        try await client.send(MovieAPI.popular(page: page))
    }

    /// A page of the movies in theatres now.
    public func nowPlaying(page: Int = 1) async throws(CourierError) -> MovieApiResponse {
        try await client.send(MovieAPI.nowPlaying(page: page))
    }

    /// A page of movies recommended for someone who liked `movie`.
    public func recommended(for movie: Movie, page: Int = 1) async throws(CourierError) -> MovieApiResponse {
        try await client.send(MovieAPI.recommendations(movieID: movie.id, page: page))
    }

    /// The trailers and clips of `movie`.
    public func videos(for movie: Movie) async throws(CourierError) -> [Video] {
        try await client.send(MovieAPI.videos(movieID: movie.id)).results
    }

    /// The first `count` pages of a list, fetched one after another, stopping early at its last page.
    /// - Parameters:
    ///   - list: Which list, for page 1 (`.popular(page: 1)`); its page number is replaced.
    ///   - count: How many pages at most.
    public func pages(of list: MovieAPI, count: Int) async throws(CourierError) -> [MovieApiResponse] {
        var pages: [MovieApiResponse] = []
        var next: Int? = 1
        while let page = next, pages.count < count {
            let response = try await client.send(list.onPage(page))
            pages.append(response)
            next = response.nextPage
        }
        return pages
    }

    /// A page of movies, reported on the main actor.
    /// - Returns: A handle that cancels the request.
    /// Every popular movie, read page by page as the sequence is iterated: each page is fetched
    /// when the one before it is used up, following the server's `Link: rel="next"`.
    ///
    /// ```swift
    /// for try await movie in movies.allPopular() { print(movie.title) }
    /// ```
    /// - Parameter maximumPages: The most pages fetched.
    /// - Returns: The movies, in the server's order.
    public func allPopular(maximumPages: Int = 500) -> ItemSequence<MovieApiResponse, Movie> {
        client.items(MovieAPI.popular(page: 1), by: .link, maximumPages: maximumPages, of: \.results)
    }

    @discardableResult
    public func page(
        of list: MovieAPI,
        completion: @escaping @MainActor @Sendable (Result<MovieApiResponse, CourierError>) -> Void
    ) -> RequestHandle {
        client.send(list, completion: completion)
    }
}

extension MovieAPI {
    /// The same list on another page.
    func onPage(_ page: Int) -> MovieAPI {
        switch self {
        case .popular: .popular(page: page)
        case .nowPlaying: .nowPlaying(page: page)
        case .recommendations(let movieID, _): .recommendations(movieID: movieID, page: page)
        }
    }
}
