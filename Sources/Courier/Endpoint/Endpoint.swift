/// A call an API offers: everything Courier needs to send it and to decode its answer.
///
/// Describe an API as an enum whose cases share a response type; each case states its facts in one
/// place, a ``Request``:
///
/// ```swift
/// enum MovieAPI: Endpoint {
///     case popular(page: Int)
///     case nowPlaying(page: Int)
///     case recommendations(movieID: Int)
///
///     var request: Request<MoviePage> {
///         switch self {
///         case .popular(let page): Request(.get, "movie/popular", query: ["page": page])
///         case .nowPlaying(let page): Request(.get, "movie/now_playing", query: ["page": page])
///         case .recommendations(let id): Request(.get, "movie/\(id)/recommendations")
///         }
///     }
/// }
///
/// let page = try await movies.send(MovieAPI.popular(page: 1))   // a MoviePage
/// ```
///
/// A call with its own response type is a `Request` value (which is itself an `Endpoint`),
/// usually from a static function so that call sites look the same:
///
/// ```swift
/// extension MovieAPI {
///     static func videos(movieID: Int) -> Request<VideoList> { Request(.get, "movie/\(movieID)/videos") }
/// }
/// let videos = try await movies.send(MovieAPI.videos(movieID: 550))
/// ```
public protocol Endpoint: Sendable {
    /// What a successful call returns: a `Decodable` model, ``JSONValue``, `Data`, or `Void`.
    associatedtype Response: Sendable

    /// The method, path, query, body, headers and response handling of this call.
    var request: Request<Response> { get }
}

extension Request: Endpoint {
    /// The request itself.
    public var request: Request<Response> { self }
}
