import Foundation
import OpenAPIRuntime

/// Reading a response body to its end: into memory, bounded by the client's size limit, or into a
/// file.
enum ResponseBody {
    /// Reads a body into memory, refusing to go past `limit` bytes; a body that arrives in one
    /// chunk comes back as that chunk, not copied.
    /// - Throws: ``CourierError/Kind/responseTooLarge`` past `limit`; the body's own errors.
    static func bytes(of body: HTTPBody?, upTo limit: Int) async throws -> HTTPBody.ByteChunk {
        guard let body else { return [] }
        var expectedLength: Int?
        if case .known(let length) = body.length {
            guard length <= limit else { throw CourierError.bodyTooLarge(length: length, limit: limit) }
            expectedLength = Int(length)
        }
        var bytes: HTTPBody.ByteChunk = []
        for try await chunk in body {
            try Task.checkCancellation()
            guard bytes.count + chunk.count <= limit else { throw CourierError.bodyTooLarge(length: nil, limit: limit) }
            if bytes.isEmpty {
                bytes = chunk
            } else {
                if let expectedLength { bytes.reserveCapacity(expectedLength) }
                bytes.append(contentsOf: chunk)
            }
        }
        return bytes
    }

    /// Reads a body into memory as `Data`, refusing to go past `limit` bytes.
    static func data(of body: HTTPBody?, upTo limit: Int) async throws -> Data {
        let bytes = try await bytes(of: body, upTo: limit)
        // An empty body (204, HEAD) needs no storage of its own.
        return bytes.isEmpty ? Data() : Data(bytes)
    }

    /// Writes a body to `file` as it arrives, replacing what the file held.
    /// - Throws: ``CourierError/Kind/fileAccessFailed`` when the file cannot be written.
    static func write(_ body: HTTPBody?, to file: URL) async throws {
        let handle: FileHandle
        do {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            handle = try FileHandle(forWritingTo: file)
        } catch {
            throw CourierError(.fileAccessFailed, message: "Cannot write to \(file.path).", underlyingError: error)
        }
        defer { try? handle.close() }
        guard let body else { return }
        for try await chunk in body {
            // A transport with data buffered hands it over without suspending, so the loop checks
            // for cancellation itself.
            try Task.checkCancellation()
            do {
                try handle.write(contentsOf: chunk)
            } catch {
                throw CourierError(.fileAccessFailed, message: "Writing to \(file.path) failed.", underlyingError: error)
            }
        }
    }

    /// The body a transport left in `file` for a failed download, read back (at most `limit`
    /// bytes) for error mapping; the file is removed.
    static func readFailureBody(at file: URL, upTo limit: Int) -> Data {
        defer { try? FileManager.default.removeItem(at: file) }
        guard let handle = try? FileHandle(forReadingFrom: file) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: limit)) ?? Data()
    }
}
