import Foundation

/// A trailer, teaser or clip of a movie.
public struct Video: Codable, Sendable, Hashable, Identifiable {
    /// The video's id.
    public var id: String
    /// The key on the hosting site (e.g. a YouTube id).
    public var key: String
    /// The title.
    public var name: String
    /// The hosting site, e.g. `YouTube`.
    public var site: String
    /// `Trailer`, `Teaser`, `Clip`, …
    public var type: String
    /// Whether the studio published it.
    public var official: Bool
    /// When it was published.
    public var publishedAt: Date
}

/// The videos of one movie: `{id, results}`.
public struct VideoList: Codable, Sendable, Hashable {
    /// The movie's id.
    public var id: Int
    /// The videos.
    public var results: [Video]
}
