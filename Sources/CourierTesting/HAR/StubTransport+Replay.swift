import Courier
import Foundation

extension StubTransport {
    /// A stub that answers from a HAR archive's exchanges.
    /// - Parameters:
    ///   - archive: The exchanges, from ``HARRecorder``, a browser, Charles or Proxyman.
    ///   - clock: What delays are measured on.
    public convenience init(replaying archive: HARArchive, clock: some Clock<Duration> = ContinuousClock()) {
        self.init(clock: clock)
        replay(archive)
    }

    /// Answers each request of `archive` with its recorded response.
    ///
    /// A request matches by method, the recorded URL's whole path and its query items (those
    /// recorded as `<redacted>` match any value); the host does not count, so an archive
    /// recorded against one server replays for a client of another. Requests recorded more than
    /// once are answered in the recorded order, the last answer repeating.
    /// - Parameter archive: The exchanges.
    public func replay(_ archive: HARArchive) {
        var order: [String] = []
        var grouped: [String: (RequestMatcher, [StubResponse])] = [:]
        // A browser records a request that never got an answer with status 0: nothing to replay.
        for entry in archive.log.entries where (100...999).contains(entry.response.status) {
            guard let matcher = Self.matcher(for: entry.request) else { continue }
            let key = entry.request.method + " " + Self.pathAndQuery(entry.request.url)
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: (matcher, [])].1.append(Self.response(for: entry.response))
        }
        for key in order {
            guard let (matcher, responses) = grouped[key] else { continue }
            answer(matcher, with: responses)
        }
    }

    /// The components of a recorded URL, which other tools may write with characters a URL may
    /// not hold (spaces, `<redacted>`).
    private static func components(_ url: String) -> URLComponents? {
        URLComponents(string: url) ?? url.addingPercentEncoding(withAllowedCharacters: allowedInURL).flatMap { URLComponents(string: $0) }
    }

    private static let allowedInURL = CharacterSet.urlQueryAllowed.union(.urlPathAllowed).union(CharacterSet(charactersIn: ":/?#&=%"))

    private static func pathAndQuery(_ url: String) -> String {
        guard let components = components(url) else { return url }
        return components.percentEncodedPath + "?" + (components.percentEncodedQuery ?? "")
    }

    private static func matcher(for request: HARArchive.Request) -> RequestMatcher? {
        guard let components = components(request.url), let method = HTTPRequest.Method(request.method) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        var matcher = RequestMatcher(method, path)
        for item in components.queryItems ?? [] {
            matcher = matcher.query(item.name, item.value == Redaction.placeholder ? nil : (item.value ?? ""))
        }
        return matcher
    }

    /// Header fields that described the body on the wire: the archive holds it decoded.
    private static let wireFields: Set<String> = ["content-encoding", "content-length", "transfer-encoding", "connection"]

    private static func response(for response: HARArchive.Response) -> StubResponse {
        var fields = HTTPFields()
        for header in response.headers where !wireFields.contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return .status(HTTPResponse.Status(code: response.status), headerFields: fields, body: response.content.bytes)
    }
}
