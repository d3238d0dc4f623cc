import Hummingbird

/// Adds `WWW-Authenticate` to every 401 that lacks one, as RFC 9110 requires and real servers do:
/// a Bearer challenge (RFC 6750) with `error="invalid_token"` when the request carried a token,
/// a bare one when it carried none. Routes that use Basic authentication set their own.
struct ChallengeMiddleware: RouterMiddleware {
    typealias Context = ReferenceRequestContext

    /// The realm every challenge names.
    static let realm = "courier-reference"

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        guard response.status == .unauthorized, response.headers[.wwwAuthenticate] == nil else { return response }
        response.headers[.wwwAuthenticate] =
            request.accessToken == nil
            ? #"Bearer realm="\#(Self.realm)""#
            : #"Bearer realm="\#(Self.realm)", error="invalid_token", error_description="The access token is invalid or expired""#
        return response
    }
}
