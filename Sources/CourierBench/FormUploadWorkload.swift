// Compiled with the package trait `AsyncHTTPClient`, as the rest of courier-bench.
#if AsyncHTTPClient
import Courier
import Foundation

/// A 1 GiB multipart form (a file part from disk between two text fields) against a plain upload
/// of the same file, through one Courier client: what streaming a form from disk costs beyond the
/// bytes themselves. Both go to `/files`, which checksums every byte as it arrives, so the server
/// does the same work for both; the form is also sent to `POST /forms`, which parses it part by
/// part on top (`parsed`), for reference. Rounds alternate which goes first.
struct FormUploadWorkload: Sendable {
    static let name = "upload_1gib_form"
    static let size = 1024 * FileWorkload.mebibyte

    struct FormReceipt: Decodable {
        struct Part: Decodable {
            var name: String?
            var size: Int
        }
        var parts: [Part]
    }

    struct FileReceipt: Decodable {
        var bytes: Int
    }

    /// Runs `rounds` rounds and returns the plain-file, the form and the parsed-form samples, one
    /// upload each.
    func run(
        _ client: Client,
        files: FileWorkload.Files,
        rounds: Int
    ) async throws -> (plain: LoadRunner.Sample, form: LoadRunner.Sample, parsed: LoadRunner.Sample) {
        let source = try files.source(bytes: Self.size)
        var plain = LoadRunner.Sample()
        var form = LoadRunner.Sample()
        var parsed = LoadRunner.Sample()
        let upload = {
            let receipt = try await client.send(Request<FileReceipt>(.put, "files", body: .file(source)).timeout(.seconds(600)))
            guard receipt.bytes == Self.size else { throw RawClients.BadResponse() }
        }
        var fields = MultipartFormData()
        fields.append("a caption", named: "caption")
        fields.appendFile(at: source, named: "video", contentType: "video/mp4")
        fields.append("the end", named: "trailer")
        let formRequest = Request<FileReceipt>(.post, "files", body: .multipart(fields)).timeout(.seconds(600))
        let formLength = try client.prepare(formRequest).payload?.length ?? 0
        let uploadForm = {
            let receipt = try await client.send(formRequest)
            guard Int64(receipt.bytes) == formLength else { throw RawClients.BadResponse() }
        }
        let uploadParsedForm = {
            let receipt = try await client.send(Request<FormReceipt>(.post, "forms", body: .multipart(fields)).timeout(.seconds(600)))
            guard receipt.parts.map(\.size) == [9, Self.size, 7] else { throw RawClients.BadResponse() }
        }
        for round in 0..<rounds {
            if round % 2 == 0 {
                plain.add(try await LoadRunner.Sample.timing(upload))
                form.add(try await LoadRunner.Sample.timing(uploadForm))
            } else {
                form.add(try await LoadRunner.Sample.timing(uploadForm))
                plain.add(try await LoadRunner.Sample.timing(upload))
            }
            parsed.add(try await LoadRunner.Sample.timing(uploadParsedForm))
        }
        return (plain, form, parsed)
    }
}
#endif
