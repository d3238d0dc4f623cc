import Courier

/// An endpoint with a sample response, for tests: Moya's `sampleData`, declared in the test
/// target so that samples never ship in the app.
///
/// ```swift
/// extension MovieAPI: SampleResponding {
///     public var sampleResponse: StubResponse { .json(MovieApiResponse.sample) }
/// }
/// let stub = StubTransport(samples: [MovieAPI.popular(page: 1), MovieAPI.nowPlaying(page: 1)])
/// ```
public protocol SampleResponding: Endpoint {
    /// What a stub answers this endpoint with.
    var sampleResponse: StubResponse { get }
}

extension RequestMatcher {
    /// Requests to `endpoint`: its method and path template, any values in the path, any query.
    /// - Parameter endpoint: The endpoint.
    /// - Returns: The matcher.
    public static func endpoint(_ endpoint: some Endpoint) -> RequestMatcher {
        let request = endpoint.request
        return RequestMatcher(request.method, request.path.template)
    }
}

extension StubTransport {
    /// A stub that answers every endpoint of `endpoints` from its sample: one value per case is
    /// enough, since the path's values and the query do not count.
    /// - Parameters:
    ///   - endpoints: The endpoints, e.g. an enum's `allCases` or one value per case.
    ///   - clock: What delays are measured on.
    public convenience init(samples endpoints: [any SampleResponding], clock: some Clock<Duration> = ContinuousClock()) {
        self.init(clock: clock)
        answerFromSamples(endpoints)
    }

    /// Answers each endpoint of `endpoints` from its sample.
    /// - Parameter endpoints: The endpoints, one value per case.
    public func answerFromSamples(_ endpoints: [any SampleResponding]) {
        for endpoint in endpoints {
            answer(.endpoint(endpoint), with: endpoint.sampleResponse)
        }
    }
}
