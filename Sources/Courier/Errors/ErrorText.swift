import Foundation

/// Makes text that reaches error descriptions safe to show and to log: bounded in length, free of
/// line breaks and terminal escape sequences, and without the userinfo or query values of any URL
/// in it.
enum ErrorText {
    /// The most characters of a message kept; the rest is cut with "…".
    static let longestMessage = 1000

    /// `text` on one line, without control characters or ANSI escape sequences, at most
    /// ``longestMessage`` characters.
    static func sanitized(_ text: String) -> String {
        guard needsSanitizing(text) else { return text }
        var result = ""
        result.reserveCapacity(min(text.utf8.count, longestMessage + 1))
        var scalars = text.unicodeScalars.makeIterator()
        var count = 0
        while let scalar = scalars.next() {
            if scalar == "\u{1B}" {
                // CSI sequences (ESC [ … final byte) and two-character escapes are dropped whole.
                if let next = scalars.next(), next == "[" {
                    while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
                }
                continue
            }
            let isControl =
                scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar == "\u{2028}" || scalar == "\u{2029}"
            if isControl {
                if !result.hasSuffix(" ") { result.unicodeScalars.append(" "); count += 1 }
            } else {
                result.unicodeScalars.append(scalar)
                count += 1
            }
            if count >= longestMessage {
                if scalars.next() != nil { result += "…" }
                break
            }
        }
        return result
    }

    /// `parts` as one line, each separated from the next by ": ", without the doubled
    /// punctuation of a sentence's full stop before the colon or at the end ("read.:", "46..").
    static func joined(_ parts: [String]) -> String {
        func withoutFullStop(_ text: Substring) -> Substring {
            text.hasSuffix(".") && !text.hasSuffix("...") ? text.dropLast() : text
        }
        var pieces = parts.map { $0.trimmingCharacters(in: .whitespaces)[...] }.filter { !$0.isEmpty }
        guard let last = pieces.popLast() else { return "" }
        var text = pieces.map { String(withoutFullStop($0)) }.joined(separator: ": ")
        if !text.isEmpty { text += ": " }
        text += last.hasSuffix("..") && !last.hasSuffix("...") ? String(last.dropLast()) : String(last)
        return text
    }

    private static func needsSanitizing(_ text: String) -> Bool {
        guard text.utf8.count <= longestMessage else { return true }
        return text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }
    }

    /// `text` with every URL's userinfo and query values replaced: `https://user:pw@host/p?key=v`
    /// becomes `https://***@host/p?key=***`.
    static func redactingURLs(in text: String) -> String {
        guard text.contains("://") || text.contains("?") else { return text }
        var output = ""
        var rest = Substring(text)
        while let schemeEnd = rest.range(of: "://") {
            output += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let urlEnd = rest.firstIndex(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == ">" }) ?? rest.endIndex
            output += redactingURLTail(String(rest[..<urlEnd]))
            rest = rest[urlEnd...]
        }
        output += rest
        return output
    }

    /// The part of a URL after `scheme://`, redacted.
    private static func redactingURLTail(_ tail: String) -> String {
        var tail = tail
        let authorityEnd = tail.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? tail.endIndex
        if let at = tail[..<authorityEnd].lastIndex(of: "@") {
            tail.replaceSubrange(tail.startIndex...at, with: "***@")
        }
        return redactingQuery(in: tail)
    }

    /// A path with a query (`/search?q=a&key=b`) with every value replaced.
    static func redactingQuery(in target: String) -> String {
        guard let question = target.firstIndex(of: "?") else { return target }
        let fragmentStart = target[question...].firstIndex(of: "#") ?? target.endIndex
        let query = target[target.index(after: question)..<fragmentStart]
        let redacted = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            return pair[..<equals] + "=***"
        }
        return target[...question] + redacted.joined(separator: "&")
    }
}
