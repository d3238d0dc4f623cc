/// Splits a `Set-Cookie` value that Foundation joined from several fields back into one value per
/// field.
///
/// `HTTPURLResponse.allHeaderFields` joins repeated fields with ", " (on Apple platforms and in
/// swift-corelibs-foundation alike), and neither gives the fields as they came. A cookie's own
/// `Expires` date has a comma too (`Expires=Wed, 21 Oct 2015 07:28:00 GMT`), so a comma starts a
/// new cookie only where a token and `=` follow it (the next cookie's name), and never inside a
/// quoted value; any other comma belongs to the cookie it is in.
package enum SetCookieSplitter {
    /// The `Set-Cookie` values `joined` holds, in order, each without the spaces around it; empty
    /// pieces are left out.
    /// - Parameter joined: A field value, as `allHeaderFields` gives it.
    /// - Returns: One value per cookie.
    package static func values(in joined: String) -> [String] {
        let bytes = Array(joined.utf8)
        // A quote that never closes is not a quoted value: the commas after it are read as if
        // it were not there, so that one stray quote cannot swallow the cookies that follow.
        let cuts = cuts(in: bytes, honouringQuotes: true) ?? cuts(in: bytes, honouringQuotes: false) ?? []
        var values: [String] = []
        var start = 0
        for end in cuts + [bytes.count] {
            let piece = trimmed(bytes[start..<end])
            if !piece.isEmpty { values.append(String(decoding: piece, as: UTF8.self)) }
            start = end + 1
        }
        return values
    }

    /// The positions of the commas that start a new cookie; `nil` when `honouringQuotes` and a
    /// quoted value does not end.
    private static func cuts(in bytes: [UInt8], honouringQuotes: Bool) -> [Int]? {
        var cuts: [Int] = []
        var quoted = false
        var lastNonSpace: UInt8?
        for (index, byte) in bytes.enumerated() {
            if quoted {
                if byte == UInt8(ascii: "\"") { quoted = false }
            } else if byte == UInt8(ascii: "\""), honouringQuotes, lastNonSpace == UInt8(ascii: "=") {
                // Only a quote that opens a value (`name="…"`, `Path="…"`) quotes.
                quoted = true
            } else if byte == UInt8(ascii: ","), startsCookie(bytes, after: index) {
                cuts.append(index)
            }
            if !isSpace(byte) { lastNonSpace = byte }
        }
        return quoted ? nil : cuts
    }

    /// Whether `token =` follows the comma at `comma`, spaces allowed around the token.
    private static func startsCookie(_ bytes: [UInt8], after comma: Int) -> Bool {
        var index = comma + 1
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        let tokenStart = index
        while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
        guard index > tokenStart else { return false }
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "=")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var piece = bytes
        while let first = piece.first, isSpace(first) { piece.removeFirst() }
        while let last = piece.last, isSpace(last) { piece.removeLast() }
        return piece
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// A `tchar` of RFC 9110 §5.6.2: what a cookie's name is made of.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
