import Foundation
import HTTPTypes

/// What applies to each request of a call, the first and every redirect's: how many redirects
/// are followed, which fields never cross to another origin, whether https may become http and a
/// body may follow a 307 or 308 to another origin, and the cookies sent and stored.
struct HopPolicy: Sendable {
    var redirectLimit: Int
    var credentialFields: CredentialFields
    var allowsInsecureRedirects: Bool
    var allowsCrossOriginBodyRedirects: Bool
    var cookieJar: CookieJar?

    /// `request` with the jar's cookies for `url` added to any the endpoint set itself.
    func addingCookies(to request: HTTPRequest, at url: URL) -> HTTPRequest {
        guard let cookieJar, let cookies = cookieJar.fieldValue(for: url) else { return request }
        var request = request
        if let own = request.headerFields.value(of: .cookie), !own.isEmpty {
            request.headerFields[.cookie] = own + "; " + cookies
        } else {
            request.headerFields[.cookie] = cookies
        }
        return request
    }
}
