import Foundation
import HTTPTypes
import Hummingbird

/// `/cookies`, as common HTTP test servers have it:
/// - `GET /cookies` (and `GET /cookies/echo/…`, for cookie paths) answers
///   `{"cookies": {name: value}}` with the cookies the request carried;
/// - `GET /cookies/set?name=value&…` sets each query item as a cookie (`Path=/`) and answers the
///   same way with what the request carried;
/// - `GET /cookies/set-expiring?name=value&…` does the same with an `Expires` date a day ahead,
///   whose comma (`Wed, 21 Oct …`) a client that splits joined fields must not cut at;
/// - `GET /cookies/set-with?name=…&value=…&path=…&domain=…&max-age=…&secure&httponly` sets one
///   cookie with those attributes;
/// - `GET /cookies/delete?name` expires a cookie.
enum CookieRoutes {
    struct Cookies: Encodable {
        var cookies: [String: String]
    }

    static func register(on router: Router<ReferenceRequestContext>) {
        router.get("cookies") { request, _ in received(request) }
        router.get("cookies/echo/**") { request, _ in received(request) }
        router.get("cookies/set") { request, _ in
            var response = received(request)
            for item in EchoRoutes.queryItems(request.uri.query) where item.count == 2 {
                response.headers.append(HTTPField(name: .setCookie, value: "\(item[0])=\(item[1]); Path=/"))
            }
            return response
        }
        router.get("cookies/set-expiring") { request, _ in
            var response = received(request)
            let expires = CacheRoutes.httpDate(Date().addingTimeInterval(24 * 3600))
            for item in EchoRoutes.queryItems(request.uri.query) where item.count == 2 {
                response.headers.append(HTTPField(name: .setCookie, value: "\(item[0])=\(item[1]); Expires=\(expires); Path=/"))
            }
            return response
        }
        router.get("cookies/set-with") { request, _ in
            let query = request.uri.queryParameters
            guard let name = query["name"].map(String.init) else {
                return JSONResponse.message("Name the cookie with ?name=", status: .badRequest)
            }
            var cookie = "\(name)=\(query["value"].map(String.init) ?? "")"
            if let path = query["path"] { cookie += "; Path=\(path)" }
            if let domain = query["domain"] { cookie += "; Domain=\(domain)" }
            if let maxAge = query["max-age"] { cookie += "; Max-Age=\(maxAge)" }
            if query["secure"] != nil { cookie += "; Secure" }
            if query["httponly"] != nil { cookie += "; HttpOnly" }
            var response = received(request)
            response.headers.append(HTTPField(name: .setCookie, value: cookie))
            return response
        }
        router.get("cookies/delete") { request, _ in
            var response = received(request)
            for item in EchoRoutes.queryItems(request.uri.query) {
                response.headers.append(HTTPField(name: .setCookie, value: "\(item[0])=; Path=/; Max-Age=0"))
            }
            return response
        }
    }

    /// The cookies the request carried, as JSON.
    static func received(_ request: Request) -> Response {
        var cookies: [String: String] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { cookies[parts[0]] = parts[1] }
            }
        }
        return JSONResponse.make(Cookies(cookies: cookies))
    }
}
