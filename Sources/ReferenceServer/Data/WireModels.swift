/// The JSON shapes the reference backends send. They are the server's own, independent of the
/// client's models, so the tests check one against the other.
struct WireUser: Codable, Sendable, Equatable {
    var id: Int
    var email: String?
    var name: String?
}

struct WireMovie: Codable, Sendable {
    var id: Int
    var title: String
    var overview: String
    var releaseDate: String
    var voteAverage: Double
    var voteCount: Int
    var popularity: Double
    var posterPath: String
    var backdropPath: String?
    var genreIDs: [Int]
    var originalLanguage: String
    var adult: Bool

    enum CodingKeys: String, CodingKey {
        case id, title, overview, popularity, adult
        case releaseDate = "release_date"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
        case posterPath = "poster_path"
        case backdropPath = "backdrop_path"
        case genreIDs = "genre_ids"
        case originalLanguage = "original_language"
    }
}

struct WireVideo: Codable, Sendable {
    var id: String
    var key: String
    var name: String
    var site: String
    var size: Int
    var type: String
    var official: Bool
    var publishedAt: String

    enum CodingKeys: String, CodingKey {
        case id, key, name, site, size, type, official
        case publishedAt = "published_at"
    }
}

struct WirePage<Item: Codable & Sendable>: Codable, Sendable {
    var page: Int
    var results: [Item]
    var totalPages: Int
    var totalResults: Int

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }
}
