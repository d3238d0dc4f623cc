import Foundation
import HTTPTypes

/// A request written as a `curl` command line, secrets hidden, for pasting into a terminal.
enum CURLCommand {
    static func render(_ request: HTTPRequest, body: Data?, redaction: Redaction) -> String {
        var parts = ["curl"]
        if request.method != .get || body != nil && request.method != .post {
            parts.append("-X \(request.method.rawValue)")
        }
        parts.append(quote(LoggedURL.render(request, redaction: redaction)))
        for field in redaction.redact(request.headerFields) {
            parts.append("-H \(quote("\(field.name.rawName): \(field.value)"))")
        }
        if let body {
            parts.append("--data-binary \(quote(redaction.redact(body: body, contentType: request.headerFields[.contentType])))")
        }
        return parts.joined(separator: " ")
    }

    /// Single quotes for a POSIX shell: nothing inside is special except the quote itself.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// The URL of a request as logs show it, secret query values hidden.
enum LoggedURL {
    static func render(_ request: HTTPRequest, redaction: Redaction) -> String {
        "\(request.scheme ?? "http")://\(request.authority ?? "")" + redaction.redact(target: request.path ?? "/")
    }
}
