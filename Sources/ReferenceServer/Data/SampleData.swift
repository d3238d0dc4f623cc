import Foundation

/// The reference backends' fixed data set: 60 users with a friends graph and 200 movies with
/// videos, generated the same way on every start so tests can rely on it.
enum SampleData {
    static let firstNames = [
        "Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Frances", "Ken",
        "Radia", "Tim", "Hedy", "Linus", "Katherine", "John", "Sophie", "Niklaus", "Karen", "Bjarne",
    ]
    static let lastNames = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Hamilton", "Ritchie"]

    /// The demo account: Ada Lovelace.
    static let demoEmail = "ada@example.com"
    static let demoPassword = "correct horse battery staple"
    /// Every other user's password.
    static let defaultPassword = "password"

    static let users: [WireUser] = (1...60).map { id in
        let first = firstNames[(id - 1) % firstNames.count]
        let last = lastNames[(id - 1) % lastNames.count]
        let email = id == 1 ? demoEmail : "\(first.lowercased()).\(last.lowercased()).\(id)@example.com"
        // Every seventh user keeps their e-mail private; every eleventh has no display name.
        return WireUser(id: id, email: id % 7 == 0 ? nil : email, name: id % 11 == 0 ? nil : "\(first) \(last)")
    }

    /// Each user starts with 8 friends spread over the graph.
    static let friendships: [Int: [Int]] = Dictionary(
        uniqueKeysWithValues: users.map { user in
            var friends: [Int] = []
            var step = 0
            while friends.count < 8 {
                let candidate = (user.id * 7 + step * 13) % users.count + 1
                if candidate != user.id && !friends.contains(candidate) { friends.append(candidate) }
                step += 1
            }
            return (user.id, friends)
        })

    static let adjectives = [
        "Silent", "Crimson", "Last", "Hidden", "Electric", "Frozen", "Golden", "Broken", "Distant", "Midnight",
        "Endless", "Secret", "Burning", "Lonely", "Wild", "Iron", "Paper", "Glass", "Velvet", "Restless",
    ]
    static let nouns = ["Harbor", "Signal", "Garden", "Protocol", "Horizon", "Orchard", "Letter", "Engine", "River", "Archive"]

    static let movies: [WireMovie] = (0..<200).map { index in
        let id = 1000 + index
        let year = 1990 + index % 37
        let month = index % 12 + 1
        let day = index % 28 + 1
        return WireMovie(
            id: id,
            title: "The \(adjectives[index % adjectives.count]) \(nouns[(index / adjectives.count) % nouns.count])",
            overview: "Movie \(id): a story told in \(90 + index % 60) minutes.",
            releaseDate: String(format: "%04d-%02d-%02d", year, month, day),
            voteAverage: Double((index * 37) % 51) / 10 + 4.5,
            voteCount: 100 + (index * 7919) % 20_000,
            popularity: Double((index * 7) % 200) + Double(index % 10) / 10,
            posterPath: "/posters/\(id).jpg",
            backdropPath: index % 5 == 0 ? nil : "/backdrops/\(id).jpg",
            genreIDs: [12 + index % 5, 28 + index % 3],
            originalLanguage: index % 9 == 0 ? "fr" : "en",
            adult: false
        )
    }

    /// Movies by popularity, most popular first.
    static let popularMovies = movies.sorted { ($0.popularity, $1.id) > ($1.popularity, $0.id) }

    /// Movies released in the last two years of the catalogue.
    static let nowPlayingMovies = movies.filter { $0.releaseDate >= "2025-01-01" }

    static func recommendations(for movieID: Int) -> [WireMovie] {
        let start = (movieID * 31) % movies.count
        return (0..<40).map { movies[(start + $0 * 3) % movies.count] }.filter { $0.id != movieID }
    }

    static func videos(for movieID: Int) -> [WireVideo] {
        (0..<(1 + movieID % 4)).map { number in
            WireVideo(
                id: "v\(movieID)-\(number)",
                key: "key\(movieID)x\(number)",
                name: number == 0 ? "Official Trailer" : "Clip \(number)",
                site: "YouTube",
                size: 1080,
                type: number == 0 ? "Trailer" : "Clip",
                official: number == 0,
                publishedAt: "2026-0\(1 + number)-15T12:00:00.000Z"
            )
        }
    }
}
