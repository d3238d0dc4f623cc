import Courier
import Foundation

/// Turns one exchange into a HAR entry, hiding credentials as it goes.
struct HAREntryWriter {
    let redaction: Redaction
    let redactsResponseBodies: Bool

    func entry(
        request: TransportRequest,
        body: Data?,
        response: HTTPResponse,
        responseBody: Data,
        started: Date,
        milliseconds: Double
    ) -> HARArchive.Entry {
        let head = request.request
        // The placeholder's angle brackets are not allowed in a URL: encoded, the URL still parses.
        let target = redaction.redact(target: head.path ?? "/").replacingOccurrences(of: Redaction.placeholder, with: "%3Credacted%3E")
        var origin = request.origin.absoluteString
        while origin.hasSuffix("/") { origin.removeLast() }
        let url = origin + target
        let query = URLComponents(string: url)?.queryItems?.map { HARArchive.NameValue(name: $0.name, value: $0.value ?? "") } ?? []
        let contentType = head.headerFields[.contentType]
        let postData = body.map { HARArchive.PostData(mimeType: contentType ?? "", text: redaction.redact(body: $0, contentType: contentType)) }
        let harRequest = HARArchive.Request(
            method: head.method.rawValue,
            url: url,
            headers: fields(head.headerFields),
            queryString: query,
            cookies: cookies(head.headerFields[values: .cookie].flatMap { $0.split(separator: ";") }),
            postData: postData
        )
        let harResponse = HARArchive.Response(
            status: response.status.code,
            statusText: response.status.reasonPhrase,
            headers: fields(response.headerFields),
            cookies: cookies(response.headerFields[values: .setCookie].compactMap { $0.split(separator: ";").first }),
            content: content(responseBody, contentType: response.headerFields[.contentType]),
            redirectURL: response.headerFields[.location] ?? ""
        )
        return HARArchive.Entry(
            startedDateTime: started.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            time: milliseconds,
            request: harRequest,
            response: harResponse,
            timings: HARArchive.Timings(send: 0, wait: milliseconds, receive: 0)
        )
    }

    private func fields(_ fields: HTTPFields) -> [HARArchive.NameValue] {
        redaction.redact(fields).map { HARArchive.NameValue(name: $0.name.rawName, value: $0.value) }
    }

    /// Each cookie's name, its value hidden: a cookie is a credential more often than not.
    private func cookies(_ pairs: [Substring]) -> [HARArchive.NameValue] {
        pairs.compactMap { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name, !name.isEmpty else { return nil }
            return HARArchive.NameValue(name: name, value: Redaction.placeholder)
        }
    }

    private func content(_ body: Data, contentType: String?) -> HARArchive.Content {
        let mimeType = contentType ?? ""
        if redactsResponseBodies, !body.isEmpty {
            let type = mimeType.lowercased()
            if type.contains("json") || type.contains("x-www-form-urlencoded") {
                return HARArchive.Content(size: body.count, mimeType: mimeType, text: redaction.redact(body: body, contentType: contentType), encoding: nil)
            }
        }
        if let text = String(data: body, encoding: .utf8) {
            return HARArchive.Content(size: body.count, mimeType: mimeType, text: text, encoding: nil)
        }
        return HARArchive.Content(size: body.count, mimeType: mimeType, text: body.base64EncodedString(), encoding: "base64")
    }
}
