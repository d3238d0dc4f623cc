import Foundation

/// A path or path template as a ``RequestMatcher`` compares it with a request's path.
struct PathTemplate: Sendable {
    private let segments: [Substring]
    private let anchored: Bool

    init(_ text: String) {
        anchored = text.hasPrefix("/")
        segments = text.split(separator: "/")
    }

    /// Whether `path` (without its query) matches: every segment, or the last ones when the
    /// template has no leading `/`.
    func matches(_ path: String) -> Bool {
        let actual = path.split(separator: "/")
        if anchored ? actual.count != segments.count : actual.count < segments.count { return false }
        return zip(segments, actual.suffix(segments.count)).allSatisfy { expected, actual in
            if expected == "*" || (expected.hasPrefix("{") && expected.hasSuffix("}")) { return true }
            return Self.decoded(expected) == Self.decoded(actual)
        }
    }

    private static func decoded(_ segment: Substring) -> String {
        String(segment).removingPercentEncoding ?? String(segment)
    }
}
