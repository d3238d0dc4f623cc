import HTTPTypes

/// What a resumable download does with the head of a response: write its body from a byte
/// offset, or throw it away and start again from the first byte.
///
/// A range is used only when everything about it agrees with the bytes already saved: the status
/// is 206, the body is not content-coded, `Content-Range` is valid and starts no later than the
/// saved bytes end, the version's validator and the full length are the saved ones, and
/// `Content-Length` (when sent) is the range's length. Anything else would stitch two versions,
/// or unknown bytes, into one file.
enum ResumeDecision: Equatable {
    /// A whole body (a 2xx other than 206): the file starts again from the first byte.
    case whole(length: Int64?)
    /// A range: its bytes are written at `first`, and end before `end`; the file is `total` long.
    case range(first: Int64, end: Int64, total: Int64?)
    /// A 206 that cannot be used: start again, without a range.
    case startAgain(reason: String)

    /// Decides what to do with `response`.
    /// - Parameters:
    ///   - response: The response's head (a 2xx).
    ///   - offset: The first byte asked for with `Range`, or `nil` when no range was asked.
    ///   - record: The saved download's record, when a range was asked.
    /// - Returns: The decision.
    static func decide(_ response: HTTPResponse, askedFrom offset: Int64?, record: DownloadRecord?) -> ResumeDecision {
        let fields = response.headerFields
        guard response.status == .partialContent else {
            return .whole(length: ContentLength.bodyLength(of: response))
        }
        guard let offset, let record else { return .startAgain(reason: "a 206 to a request without a range") }
        if let coding = fields[.contentEncoding], !ContentCoding.listed(in: coding).isEmpty {
            return .startAgain(reason: "a range in a content coding")
        }
        guard let text = fields[.contentRange], case .bytes(let first, let last, let total)? = ContentRange.parse(text) else {
            return .startAgain(reason: "a 206 without a valid Content-Range")
        }
        guard first <= offset else { return .startAgain(reason: "a range that starts after the bytes saved") }
        if fields[.eTag] != nil || fields[.lastModified] != nil, DownloadRecord.validator(of: response) != record.validator {
            return .startAgain(reason: "a range of another version")
        }
        if let saved = record.totalBytes, let total, saved != total {
            return .startAgain(reason: "a range of a file of another length")
        }
        if let length = ContentLength.value(in: fields), length != last - first + 1 {
            return .startAgain(reason: "a Content-Length that disagrees with Content-Range")
        }
        return .range(first: first, end: last + 1, total: total ?? record.totalBytes)
    }
}
