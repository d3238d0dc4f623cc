import Foundation
import HTTPTypes

extension ResponseReader {
    /// Why an https server refused the client's certificate after the TLS handshake, as nginx
    /// does: it completes the handshake whatever the client presents and answers 400 with a page
    /// naming the reason ("No required SSL certificate was sent", "The SSL certificate error"), or
    /// 496 ("SSL Certificate Required") and 495 ("SSL Certificate Error") where a server sends
    /// those statuses themselves. `nil` for any other response.
    /// - Parameters:
    ///   - response: The response.
    ///   - body: Its body, as much as was kept.
    /// - Returns: The reason, a sentence for ``CourierError/message``.
    static func clientCertificateRefusal(_ response: HTTPResponse, body: Data) -> String? {
        let missing = "The server requires a client certificate (mutual TLS), and none was sent"
        let refused = "The server refused the client certificate (mutual TLS): it is expired, from an issuer the server does not trust, or not readable"
        switch response.status.code {
        case 496: return "\(missing): it answered 496 (SSL Certificate Required) after the TLS handshake."
        case 495: return "\(refused): it answered 495 (SSL Certificate Error) after the TLS handshake."
        case 400:
            // nginx's pages put the reason in the title and the heading; the body is ASCII.
            if contains(body, "No required SSL certificate was sent") {
                return "\(missing): it answered 400 \"No required SSL certificate was sent\" after the TLS handshake."
            }
            if contains(body, "The SSL certificate error") {
                return "\(refused): it answered 400 \"The SSL certificate error\" after the TLS handshake."
            }
            return nil
        default: return nil
        }
    }

    private static func contains(_ body: Data, _ text: String) -> Bool {
        body.range(of: Data(text.utf8)) != nil
    }
}
