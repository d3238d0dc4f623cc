/// A movie as TheMovieDB lists it. Keys arrive in snake_case (`poster_path`, `vote_average`) and
/// are converted by the movie client's decoder.
public struct Movie: Codable, Sendable, Hashable, Identifiable {
    /// The movie's id.
    public var id: Int
    /// The title.
    public var title: String
    /// A short synopsis.
    public var overview: String
    /// `YYYY-MM-DD`.
    public var releaseDate: String
    /// The average rating, 0–10.
    public var voteAverage: Double
    /// How many ratings the average is based on.
    public var voteCount: Int
    /// The poster image path, when there is one.
    public var posterPath: String?
    /// The backdrop image path, when there is one.
    public var backdropPath: String?
    /// Genre ids.
    public var genreIds: [Int]
    /// Popularity score; higher is more popular.
    public var popularity: Double
}

/// One page of a movie list: `{page, total_results, total_pages, results}`.
public struct MovieApiResponse: Codable, Sendable, Hashable {
    /// The page number, from 1.
    public var page: Int
    /// How many movies the whole list has.
    public var totalResults: Int
    /// How many pages the whole list has.
    public var totalPages: Int
    /// The movies on this page.
    public var results: [Movie]

    /// The next page's number, or `nil` on the last page.
    public var nextPage: Int? {
        page < totalPages ? page + 1 : nil
    }
}
