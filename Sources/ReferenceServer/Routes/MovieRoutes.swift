import HTTPTypes
import Hummingbird

/// The movie backend, shaped like TheMovieDB v3 (`/3`): popular, now playing, details,
/// recommendations and videos, 20 results a page. Every route needs `api_key`; errors are
/// `{"status_code": N, "status_message": "…", "success": false}`.
enum MovieRoutes {
    static let pageSize = 20

    static func register(on router: Router<ReferenceRequestContext>, apiKey: String) {
        let api = router.group("3")

        api.get("movie/popular") { request, _ -> Response in
            paged(SampleData.popularMovies, request: request, apiKey: apiKey)
        }

        api.get("movie/now_playing") { request, _ -> Response in
            paged(SampleData.nowPlayingMovies, request: request, apiKey: apiKey)
        }

        api.get("movie/:id") { request, context -> Response in
            if let denied = checkKey(request, apiKey: apiKey) { return denied }
            guard let movie = movie(context) else { return notFound() }
            return JSONResponse.make(movie)
        }

        api.get("movie/:id/recommendations") { request, context -> Response in
            guard let movie = movie(context) else {
                return checkKey(request, apiKey: apiKey) ?? notFound()
            }
            return paged(SampleData.recommendations(for: movie.id), request: request, apiKey: apiKey)
        }

        api.get("movie/:id/videos") { request, context -> Response in
            if let denied = checkKey(request, apiKey: apiKey) { return denied }
            guard let movie = movie(context) else { return notFound() }
            struct VideoList: Encodable {
                var id: Int
                var results: [WireVideo]
            }
            return JSONResponse.make(VideoList(id: movie.id, results: SampleData.videos(for: movie.id)))
        }
    }

    static func checkKey(_ request: Request, apiKey: String) -> Response? {
        guard request.uri.queryParameters["api_key"].map(String.init) == apiKey else {
            return JSONResponse.tmdbError(
                code: 7,
                message: "Invalid API key: You must be granted a valid key.",
                status: .unauthorized
            )
        }
        return nil
    }

    static func movie(_ context: ReferenceRequestContext) -> WireMovie? {
        guard let id = context.parameters.get("id", as: Int.self) else { return nil }
        return SampleData.movies.first { $0.id == id }
    }

    static func notFound() -> Response {
        JSONResponse.tmdbError(code: 34, message: "The resource you requested could not be found.", status: .notFound)
    }

    static func paged(_ movies: [WireMovie], request: Request, apiKey: String) -> Response {
        if let denied = checkKey(request, apiKey: apiKey) { return denied }
        let pageText = request.uri.queryParameters["page"]
        guard let page = pageText.map({ Int($0) }) ?? 1, (1...500).contains(page) else {
            return JSONResponse.tmdbError(
                code: 22,
                message: "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.",
                status: .badRequest
            )
        }
        let start = min((page - 1) * pageSize, movies.count)
        let results = Array(movies[start..<min(start + pageSize, movies.count)])
        let totalPages = (movies.count + pageSize - 1) / pageSize
        // Lists change rarely: fresh for a minute, then revalidated by their entity tag.
        let eTag = "\"\(request.uri.path.split(separator: "/").last ?? "list")-\(page)-\(movies.count)\""
        var headers: HTTPFields = [.cacheControl: "max-age=60", .eTag: eTag]
        if let link = HTTPField.Name("Link") { headers[link] = links(request: request, page: page, totalPages: totalPages) }
        if request.headers[.ifNoneMatch] == eTag {
            return Response(status: .notModified, headers: headers)
        }
        var response = JSONResponse.make(WirePage(page: page, results: results, totalPages: totalPages, totalResults: movies.count))
        for field in headers { response.headers.append(field) }
        return response
    }

    /// `Link` (RFC 8288) to the next, previous, first and last pages, relative to the request's
    /// path, with its query but never its `api_key` (GitHub's form).
    static func links(request: Request, page: Int, totalPages: Int) -> String {
        let path = request.uri.path
        let others = request.uri.queryParameters.filter { $0.key != "page" && $0.key != "api_key" }
            .map { "\($0.key)=\($0.value)" }.sorted()
        func target(_ number: Int) -> String {
            "<\(path)?\((["page=\(number)"] + others).joined(separator: "&"))>"
        }
        var links: [String] = []
        if page < totalPages { links.append("\(target(page + 1)); rel=\"next\"") }
        if page > 1 { links.append("\(target(page - 1)); rel=\"prev\"") }
        links.append("\(target(1)); rel=\"first\"")
        links.append("\(target(max(totalPages, 1))); rel=\"last\"")
        return links.joined(separator: ", ")
    }
}
