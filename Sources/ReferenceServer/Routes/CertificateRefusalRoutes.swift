import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /certificate-refusal/{reason}`: answers as nginx does under `ssl_verify_client on` once
/// the TLS handshake is done, for a client that sent no certificate or a refused one.
/// - `missing`, `error`: 400 with nginx's page, whose title names the reason ("No required SSL
///   certificate was sent", "The SSL certificate error");
/// - `496`, `495`: that status itself ("SSL Certificate Required", "SSL Certificate Error"), as a
///   server that passes nginx's internal status on sends it.
enum CertificateRefusalRoutes {
    static func register(on router: Router<ReferenceRequestContext>) {
        router.get("certificate-refusal/:reason") { _, context in
            switch context.parameters.get("reason") {
            case "missing": page(400, "No required SSL certificate was sent")
            case "error": page(400, "The SSL certificate error")
            case "496": page(496, "SSL Certificate Required")
            case "495": page(495, "SSL Certificate Error")
            default: JSONResponse.message("Name the refusal: missing, error, 496 or 495", status: .notFound)
            }
        }
    }

    /// nginx 1.22's error page: the status and the reason in the title, "Bad Request" in the
    /// heading of a 400.
    static func page(_ status: Int, _ reason: String) -> Response {
        let heading = status == 400 ? "400 Bad Request" : "\(status) \(reason)"
        let html = """
            <html>
            <head><title>\(status) \(reason)</title></head>
            <body>
            <center><h1>\(heading)</h1></center>
            <center>\(reason)</center>
            <hr><center>nginx</center>
            </body>
            </html>

            """
        return Response(
            status: HTTPResponse.Status(code: status, reasonPhrase: status == 400 ? "Bad Request" : reason),
            headers: [.contentType: "text/html"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html))
        )
    }
}
