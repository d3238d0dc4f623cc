import Foundation
import HTTPTypes
import Hummingbird

/// A paged list whose `Link` can lead away, for the client's refusal of such links.
///
/// - `GET /pages/{key}?page=N&last=L&away_from=A&away_to=URL`: page N of L as `{"page", "items"}`,
///   with `Link: <…?page=N+1>; rel="next"` until the last page. From page A on, the next link
///   points to `away_to` (another origin, or plain http) instead of this server. Each page served
///   counts as a hit on `pages-{key}`.
enum PageRoutes {
    struct Page: Encodable {
        var page: Int
        var items: [Int]
    }

    static func register(on router: Router<ReferenceRequestContext>, ledger: ReliabilityLedger) {
        router.get("pages/:key") { request, context -> Response in
            let key = context.parameters.get("key") ?? ""
            _ = await ledger.hit("pages-\(key)")
            let page = max(1, request.queryInt("page") ?? 1)
            let last = max(1, request.queryInt("last") ?? 3)
            var response = JSONResponse.make(Page(page: page, items: Array((page * 10)..<(page * 10 + 3))))
            guard page < last, let link = HTTPField.Name("Link") else { return response }
            let others = request.uri.queryParameters.filter { $0.key != "page" }.map { "\($0.key)=\($0.value)" }.sorted()
            let query = (["page=\(page + 1)"] + others).joined(separator: "&")
            let awayFrom = request.queryInt("away_from") ?? Int.max
            let away = request.uri.queryParameters["away_to"].map(String.init)
            let base = page >= awayFrom ? (away ?? "") : ""
            response.headers[link] = "<\(base)\(request.uri.path)?\(query)>; rel=\"next\""
            return response
        }
    }
}
