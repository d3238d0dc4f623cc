import Courier

extension Backend {
    /// The social network: friends of a user. Errors are `{"message": "…"}`.
    public static let social = Backend(
        "social",
        production: "https://social.example.com/api/v1",
        staging: "https://staging.social.example.com/api/v1",
        qa: "https://qa.social.example.com/api/v1"
    )

    /// TheMovieDB v3. Errors are `{"status_message": "…", "status_code": N}`.
    public static let movies = Backend(
        "movies",
        production: "https://api.themoviedb.org/3",
        staging: "https://staging-api.themoviedb.org/3",
        qa: "https://qa-api.themoviedb.org/3"
    )

    /// The authentication server.
    public static let auth = Backend(
        "auth",
        production: "https://auth.example.com",
        staging: "https://staging.auth.example.com",
        qa: "https://qa.auth.example.com"
    )

    /// The analytics server.
    public static let analytics = Backend(
        "analytics",
        production: "https://analytics.example.com",
        staging: "https://staging.analytics.example.com",
        qa: "https://qa.analytics.example.com"
    )
}
