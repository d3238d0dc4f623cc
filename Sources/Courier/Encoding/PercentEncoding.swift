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

    /// Escapes every byte of `text` not in `allowed`; with `spaceAsPlus`, a space becomes `+`
    /// (the `application/x-www-form-urlencoded` rule).
    static func escape(_ text: String, allowing allowed: Allowed, spaceAsPlus: Bool = false) -> String {
        if text.utf8.allSatisfy(allowed.contains) { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        append(text, allowing: allowed, spaceAsPlus: spaceAsPlus, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends `text` to `output`, escaped as ``escape(_:allowing:spaceAsPlus:)`` would.
    static func append(_ text: String, allowing allowed: Allowed, spaceAsPlus: Bool = false, to output: inout [UInt8]) {
        // Read in place (no copy of the string to make it native first) unless it is bridged.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            append(bytes, allowing: allowed, spaceAsPlus: spaceAsPlus, to: &output)
        }
        if done == nil {
            var text = text
            text.withUTF8 { append($0, allowing: allowed, spaceAsPlus: spaceAsPlus, to: &output) }
        }
    }

    private static func append(
        _ bytes: UnsafeBufferPointer<UInt8>,
        allowing allowed: Allowed,
        spaceAsPlus: Bool,
        to output: inout [UInt8]
    ) {
        for byte in bytes {
            if allowed.contains(byte) {
                output.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            }
        }
    }

    /// `0`–`9`, `A`–`F` for a value below 16.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
