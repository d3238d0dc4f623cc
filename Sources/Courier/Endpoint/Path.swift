/// An endpoint's path below the client's base URL, written as a string with interpolated values.
///
/// Interpolated values are escaped as one path segment, so an identifier can never add a segment,
/// climb out of the base path or start a query:
///
/// ```swift
/// let path: Path = "movie/\(id)/videos"        // movie/550/videos
/// let file: Path = "files/\(name)"             // name "a/b?c" → files/a%2Fb%3Fc
/// ```
///
/// The literal parts are yours and may hold `/`. A segment that is `.` or `..`, or a literal `?`
/// or `#`, makes the request fail with ``CourierError/Kind/invalidRequest`` before anything is
/// sent. A leading `/` is optional: paths are always relative to the base URL.
public struct Path: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The path with every interpolated value percent-encoded.
    let escaped: String
    /// The path with every interpolated value as `{}`: `movie/{}/videos`. Names, metric labels and
    /// span names use it, so no value (an identifier, a reset code) reaches them.
    package let template: String
    /// Why the path may not be sent, when it may not.
    let problem: String?

    /// Builds a path from interpolated segments.
    public struct StringInterpolation: StringInterpolationProtocol {
        var escaped = ""
        var template = ""
        var problem: String?

        /// Reserves room for the literal text.
        public init(literalCapacity: Int, interpolationCount: Int) {
            escaped.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends literal text, escaping what is not allowed in a path.
        public mutating func appendLiteral(_ literal: String) {
            if problem == nil, let bad = literal.utf8.first(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
                problem = "The path contains \"\(Character(Unicode.Scalar(bad)))\"; put query items in the request's `query`."
            }
            let literal = PercentEncoding.escape(literal, allowing: .path)
            escaped += literal
            template += literal
        }

        /// Appends a value as (part of) one segment: `/`, `?`, `#` and `%` are escaped.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            escaped += PercentEncoding.escape(value.description, allowing: .unreserved)
            template += "{}"
        }
    }

    /// Creates a path from a literal with no interpolation.
    public init(stringLiteral value: String) {
        var interpolation = StringInterpolation(literalCapacity: value.utf8.count, interpolationCount: 0)
        interpolation.appendLiteral(value)
        self.init(stringInterpolation: interpolation)
    }

    /// Creates a path from an interpolated string.
    public init(stringInterpolation: StringInterpolation) {
        // Everything in `escaped` is ASCII (the rest was percent-encoded), so bytes are characters.
        let text = stringInterpolation.escaped
        let leadingSlashes = text.utf8.prefix(while: { $0 == UInt8(ascii: "/") }).count
        escaped = leadingSlashes == 0 ? text : String(Substring(text.utf8.dropFirst(leadingSlashes)))
        let pattern = stringInterpolation.template
        let patternSlashes = pattern.utf8.prefix(while: { $0 == UInt8(ascii: "/") }).count
        template = patternSlashes == 0 ? pattern : String(Substring(pattern.utf8.dropFirst(patternSlashes)))
        var problem = stringInterpolation.problem
        if problem == nil, Self.hasDotSegment(escaped) {
            problem = "The path \"\(escaped)\" has a \".\" or \"..\" segment, which could leave the base URL."
        }
        self.problem = problem
    }

    /// Whether a segment of `path` is `.` or `..`.
    private static func hasDotSegment(_ path: String) -> Bool {
        var dots = 0
        var segmentLength = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if segmentLength > 0 && dots == segmentLength && dots <= 2 { return true }
                dots = 0
                segmentLength = 0
            } else {
                segmentLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return segmentLength > 0 && dots == segmentLength && dots <= 2
    }

    /// Creates a path from segments, each escaped on its own.
    /// - Parameter segments: The segments, e.g. `["movie", "550", "videos"]`.
    public init(segments: [String]) {
        var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: segments.count)
        for (index, segment) in segments.enumerated() {
            if index > 0 { interpolation.appendLiteral("/") }
            interpolation.appendInterpolation(segment)
        }
        self.init(stringInterpolation: interpolation)
    }

    /// The escaped path, as it will be sent below the base URL.
    public var description: String { escaped }
}
