import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Between HTTP Types and Foundation's `URLRequest` and `HTTPURLResponse`.
extension SessionTransport {
    /// The `URLRequest` for `request` below `origin`, its body read into memory.
    static func urlRequest(for request: HTTPRequest, body: HTTPBody?, origin: URL) async throws -> URLRequest {
        var urlRequest = try urlRequest(for: request, origin: origin)
        if let body { urlRequest.httpBody = try await Data(collecting: body, upTo: .max) }
        try Task.checkCancellation()
        return urlRequest
    }

    static func urlRequest(for request: HTTPRequest, origin: URL) throws -> URLRequest {
        let target = origin.absoluteString + (request.path ?? "/")
        guard let url = URL(string: target) else {
            throw CourierError(.invalidRequest, message: "The request's URL is not valid.")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        // Cookies are the client's business (``Configuration/cookieJar``), never the session's jar.
        urlRequest.httpShouldHandleCookies = false
        for field in request.headerFields where field.name != .cookie {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName)
        }
        // HTTPFields keeps each cookie as a field of its own; HTTP/1.1 wants one `Cookie` line,
        // joined with "; " (URLRequest would join them with ", ").
        if let cookies = request.headerFields.value(of: .cookie) {
            urlRequest.setValue(cookies, forHTTPHeaderField: HTTPField.Name.cookie.rawName)
        }
        return urlRequest
    }

    static func response(from urlResponse: URLResponse?) throws -> HTTPResponse {
        guard let http = urlResponse as? HTTPURLResponse else {
            throw CourierError(.invalidResponse, message: "The server's answer was not an HTTP response.")
        }
        return HTTPResponse(status: .init(code: http.statusCode), headerFields: headerFields(of: http))
    }

    /// The header fields of `response`, with one `Set-Cookie` field per cookie: Foundation joins
    /// repeated fields with ", " in `allHeaderFields`, and a cookie jar needs each cookie apart
    /// (``SetCookieSplitter``). Every conversion of an `HTTPURLResponse` goes through here.
    /// - Parameter response: The response.
    /// - Returns: Its fields; names that are not valid field names are left out.
    static func headerFields(of response: HTTPURLResponse) -> HTTPFields {
        var fields = HTTPFields()
        for (key, value) in response.allHeaderFields {
            guard let key = key as? String, let name = HTTPField.Name(key), let value = value as? String else { continue }
            if name == .setCookie {
                for cookie in SetCookieSplitter.values(in: value) { fields.append(HTTPField(name: name, value: cookie)) }
            } else {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        return fields
    }

    /// The error for a body that failed after its head arrived: libcurl refuses a coding it cannot
    /// decode without naming it, so a head naming a coding URLSession does not decode says which;
    /// otherwise the response is incomplete.
    static func bodyFailure(after error: any Error, head: HTTPResponse) -> CourierError {
        ContentCoding.refusal(of: head, decoded: decodedCodings) ?? CourierError.incompleteBody(after: error)
    }
}
