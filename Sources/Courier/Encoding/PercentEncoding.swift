/// RFC 3986 percent-encoding over UTF-8 bytes.
///
/// Foundation's `addingPercentEncoding` leaves `+`, `&`, `=` and `?` alone in queries, which
/// servers then read as separators or spaces, so Courier escapes from its own small tables.
enum PercentEncoding {
    /// Which bytes may stand unescaped.
    enum Allowed {
        /// `ALPHA / DIGIT / "-" / "." / "_" / "~"`: safe anywhere (query names, values, one path segment).
        case unreserved
        /// Unreserved plus the path separator and the sub-delimiters, `:` and `@`: a whole path
        /// written by the developer.
        case path

        func contains(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                return true
            case UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","),
                UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
                return self == .path
            default:
                return false
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Escapes every byte of `text` not in `allowed`; with `spaceAsPlus`, a space becomes `+`
    /// (the `application/x-www-form-urlencoded` rule).
    static func escape(_ text: String, allowing allowed: Allowed, spaceAsPlus: Bool = false) -> String {
        let utf8 = text.utf8
        if utf8.allSatisfy(allowed.contains) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if allowed.contains(byte) {
                output.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
