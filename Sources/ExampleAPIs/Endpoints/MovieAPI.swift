import Courier

/// The movie lists of TheMovieDB: every case returns a page of movies, so the API is one enum and
/// the compiler lists every list it offers.
public enum MovieAPI: Endpoint {
    /// `movie/popular?page=`.
    case popular(page: Int)
    /// `movie/now_playing?page=` (the client adds `api_key`).
    case nowPlaying(page: Int)
    /// `movie/{id}/recommendations?page=`.
    case recommendations(movieID: Int, page: Int)

    /// Each case's method, path and query, side by side.
    public var request: Request<MovieApiResponse> {
        switch self {
        case .popular(let page):
            Request(.get, "movie/popular", query: ["page": page])
        case .nowPlaying(let page):
            Request(.get, "movie/now_playing", query: ["page": page])
        case .recommendations(let movieID, let page):
            Request(.get, "movie/\(movieID)/recommendations", query: ["page": page])
        }
    }
}

extension MovieAPI {
    /// `movie/{id}/videos`: trailers and clips. Its own response type, so a `Request` value.
    public static func videos(movieID: Int) -> Request<VideoList> {
        Request(.get, "movie/\(movieID)/videos")
    }

    /// `movie/{id}`: one movie.
    public static func details(movieID: Int) -> Request<Movie> {
        Request(.get, "movie/\(movieID)")
    }
}
