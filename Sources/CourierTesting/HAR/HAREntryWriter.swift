import Courier
import Foundation

/// Turns one exchange into a HAR entry, hiding credentials as it goes.
struct HAREntryWriter {
    let redaction: Redaction
    let redactsResponseBodies: Bool

    func entry(
        request: TransportRequest,
        body: Data?,
        response: TransportResponse,
        responseBody: Data,
        started: Date,
        milliseconds: Double
    ) -> HARArchive.Entry {
        let version = response.httpVersion
        let timings = response.timings
        let response = response.response
        let head = request.request
        // The placeholder's angle brackets are not allowed in a URL: encoded, the URL still parses.
        let target = redaction.redact(target: head.path ?? "/").replacingOccurrences(of: Redaction.placeholder, with: "%3Credacted%3E")
        var origin = request.origin.absoluteString
        while origin.hasSuffix("/") { origin.removeLast() }
        let url = origin + target
        let query = URLComponents(string: url)?.queryItems?.map { HARArchive.NameValue(name: $0.name, value: $0.value ?? "") } ?? []
        let contentType = head.headerFields[.contentType]
        let postData = body.map { HARArchive.PostData(mimeType: contentType ?? "", text: redaction.redact(body: $0, contentType: contentType)) }
        var harRequest = HARArchive.Request(
            method: head.method.rawValue,
            url: url,
            headers: fields(head.headerFields),
            queryString: query,
            cookies: cookies(head.headerFields[values: .cookie].flatMap { $0.split(separator: ";") }),
            postData: postData
        )
        var harResponse = HARArchive.Response(
            status: response.status.code,
            statusText: response.status.reasonPhrase,
            headers: fields(response.headerFields),
            cookies: cookies(response.headerFields[values: .setCookie].compactMap { $0.split(separator: ";").first }),
            content: content(responseBody, contentType: response.headerFields[.contentType]),
            redirectURL: response.headerFields[.location] ?? ""
        )
        harRequest.httpVersion = version.description
        harResponse.httpVersion = version.description
        return HARArchive.Entry(
            startedDateTime: (timings?.startDate ?? started).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            time: milliseconds,
            request: harRequest,
            response: harResponse,
            timings: timings.flatMap(Self.phases) ?? HARArchive.Timings(send: 0, wait: milliseconds, receive: 0)
        )
    }

    /// HAR's phases from a transport's timings: the request's sending, the wait for the head, the
    /// body's arrival, and the connection's setup where the transport measured it.
    private static func phases(of timings: ExchangeTimings) -> HARArchive.Timings? {
        guard let firstByte = timings.responseStarted, let end = timings.responseEnded else { return nil }
        let sent = timings.requestSent ?? .zero
        return HARArchive.Timings(
            dns: timings.domainLookup.map(milliseconds) ?? -1,
            connect: timings.connect.map(milliseconds) ?? -1,
            ssl: timings.secureConnection.map(milliseconds) ?? -1,
            send: milliseconds(sent),
            wait: milliseconds(firstByte - sent),
            receive: milliseconds(end - firstByte)
        )
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
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
