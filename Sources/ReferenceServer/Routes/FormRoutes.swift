import Foundation
import HTTPTypes
import Hummingbird

/// Routes for `multipart/form-data` uploads of any size, read as they arrive so the server's
/// memory stays flat:
///
/// - `POST /forms`: answers `{"parts": [{"name", "filename", "content_type", "size", "checksum",
///   "text"}]}`, each part's size and ``FilePattern/Checksum``, and its text when it is text of at
///   most 4 KiB. A body that is not a form is a 400; one that ends early (a cut connection, a form
///   without its closing boundary) is not counted.
/// - `GET /forms/received`: `{"complete": N}`, how many forms were read whole.
enum FormRoutes {
    struct Receipt: Encodable {
        var parts: [MultipartSummary]
    }

    struct Received: Codable {
        var complete: Int
    }

    /// The forms read whole.
    private actor Tally {
        var complete = 0
        func count() { complete += 1 }
    }

    static func register(on router: Router<ReferenceRequestContext>) {
        let tally = Tally()
        router.post("forms") { request, _ -> Response in
            var request = request
            let parts: [MultipartSummary]
            do {
                parts = try await MultipartSummary.parse(&request)
            } catch MultipartSummary.ParseError.notMultipart {
                return JSONResponse.message("The body must be multipart/form-data with a boundary.", status: .badRequest)
            } catch is FormParser.Failure {
                return JSONResponse.message("The form's part heads are malformed.", status: .badRequest)
            }
            await tally.count()
            return JSONResponse.make(Receipt(parts: parts))
        }
        router.get("forms/received") { _, _ -> Response in
            JSONResponse.make(Received(complete: await tally.complete))
        }
    }
}
