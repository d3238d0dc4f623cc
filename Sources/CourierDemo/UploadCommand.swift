import ArgumentParser
import Courier
import ExampleAPIs
import Foundation

/// Uploads a file, streamed from disk, as a multipart form (the file part between two text fields)
/// or as the whole body (`--body file`), to `POST /forms` (which answers each part's size and
/// checksum) or `POST /files` (which answers the whole body's), and prints the body's length, the
/// server's receipt and this process's peak memory before and after: how a test shows that a file or form of any size is sent in constant
/// memory.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a file as a multipart form, streamed from disk; print the receipt and peak memory."
    )

    @Option(help: "The server's origin, e.g. http://127.0.0.1:8080.")
    var baseURL: String

    @Option(help: "The file to upload.")
    var file: String

    @Option(help: "Where to send it: forms (parts read one by one) or files (the body counted whole).")
    var path = "forms"

    @Option(help: "The transport: urlsession or asynchttpclient.")
    var transport = TransportChoice.urlsession

    @Option(help: "What is sent: form (the file between two text fields) or file (the file alone).")
    var body = "form"

    func run() async throws {
        let client = Client(baseURL: BaseURL(baseURL), transport: try transport.make())
        // Warm up: the first call loads what every call needs, so the peak after the upload is the
        // upload's own.
        _ = try await client.send(Request<Data>(.get, "files/1"))
        say("peak-mib-before \(ResidentMemory.peakMebibytes())")
        let file = URL(fileURLWithPath: file)
        var form = MultipartFormData()
        form.append("a caption", named: "caption")
        form.appendFile(at: file, named: "video", contentType: "video/mp4")
        form.append("the end", named: "trailer")
        let content: RequestBody = body == "file" ? .file(file) : .multipart(form)
        // Generous: a debug build reads and checksums a gigabyte slowly on both sides.
        let request = Request<Data>(.post, Path(stringLiteral: path), body: content).timeout(.seconds(900))
        say("length \(try client.prepare(request).payload?.length ?? -1)")
        let receipt = try await client.send(request)
        say("peak-mib-after \(ResidentMemory.peakMebibytes())")
        say("receipt \(String(decoding: receipt, as: UTF8.self))")
    }

    /// Writes a line to standard output at once (no buffer), for a parent process reading it.
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
