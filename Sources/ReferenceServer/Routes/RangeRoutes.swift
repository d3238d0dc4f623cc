import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /ranged/{bytes}`: `bytes` bytes of ``FilePattern`` served with ranges as RFC 9110 §14
/// has them (and `GET /ranged/{bytes}/checksum`: `{"bytes": N, "checksum": C}` of those bytes) (`Range: bytes=N-` or `N-M`, `If-Range` with the strong `ETag` or `Last-Modified`,
/// 416 past the end), and on request served wrong, for resumable downloads' tests.
///
/// Query items:
/// - `misbehave=`: `ignore-range` (always 200), `changing-etag` (a new `ETag` each response, and
///   `If-Range` ignored), `weak-etag` (a weak `ETag`, no `Last-Modified`), `no-validator`,
///   `last-modified-only`, `early-start` (a 206 from 1,000 bytes before the byte asked for),
///   `wrong-length` (a `Content-Range` to the end, with 1,000 bytes fewer in the body),
///   `compress-range` (a 206 in gzip), `short-ranges` (206s of at most 1 MiB).
/// - `cut=K`: the first response that starts before byte K drops the connection once it has sent
///   the bytes before K (its `Content-Length` promised more); later ones for the same file and K
///   are whole.
/// - `rate=B`: about B bytes a second.
/// - `signature=S`: a signed link that answers once; the same signature again is a 403.
enum RangeRoutes {
    static let lastModified = "Wed, 21 Oct 2026 07:28:00 GMT"

    /// Signatures, or cuts, already used: each answers once.
    actor OneTimeKeys {
        private var used: Set<String> = []

        /// Whether `key` is fresh, marking it used.
        func use(_ key: String) -> Bool {
            used.insert(key).inserted
        }
    }

    /// Numbers the responses of `changing-etag`.
    actor Versions {
        private var next = 0

        func take() -> Int {
            next += 1
            return next
        }
    }

    static func register(on router: Router<ReferenceRequestContext>) {
        let piece = ByteBuffer(bytes: FilePattern.bytes(0..<FilePattern.pieceSize))
        let links = OneTimeKeys()
        let cuts = OneTimeKeys()
        let versions = Versions()
        router.get("ranged/:bytes/checksum") { _, context -> Response in
            guard let size = context.parameters.get("bytes", as: Int.self), (0...FileRoutes.largestFile).contains(size) else {
                return JSONResponse.message("Give a size from 0 to \(FileRoutes.largestFile) bytes.", status: .badRequest)
            }
            return JSONResponse.make(FileRoutes.Receipt(bytes: size, checksum: FilePattern.checksum(ofFirst: size).value))
        }
        router.get("ranged/:bytes") { request, context -> Response in
            guard let size = context.parameters.get("bytes", as: Int.self), (0...FileRoutes.largestFile).contains(size) else {
                return JSONResponse.message("Give a size from 0 to \(FileRoutes.largestFile) bytes.", status: .badRequest)
            }
            let query = request.uri.queryParameters
            if let signature = query["signature"], await !links.use(String(signature)) {
                return JSONResponse.message("Request has expired.", status: .forbidden)
            }
            let misbehaviour = query["misbehave"].map(String.init) ?? ""
            var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
            var etag: String? = "\"pattern-\(size)\""
            switch misbehaviour {
            case "changing-etag": etag = "\"pattern-\(size)-\(await versions.take())\""
            case "weak-etag": etag = "W/\"pattern-\(size)\""
            case "no-validator", "last-modified-only": etag = nil
            default: break
            }
            if let etag { headers[.eTag] = etag }
            if !["weak-etag", "no-validator"].contains(misbehaviour) { headers[.lastModified] = lastModified }

            var range = misbehaviour == "ignore-range" ? nil : request.headers[.range].flatMap { requestedRange($0, size: size) }
            if let condition = request.headers[.ifRange], misbehaviour != "changing-etag",
                condition.hasPrefix("W/") || (condition != etag && condition != headers[.lastModified])
            {
                range = nil
            }
            let pace = query["rate"].flatMap { Int($0) }.map { max(1024, $0) }
            let cutAt = query["cut"].flatMap { Int($0) }
            /// The cut for a response of `bytes`, when it is the first to cross it.
            func cut(of bytes: Range<Int>) async -> Int? {
                guard let cutAt, bytes.lowerBound < cutAt, cutAt < bytes.upperBound, await cuts.use("\(size)-\(cutAt)") else { return nil }
                return cutAt
            }
            guard let range else {
                return Response(status: .ok, headers: headers, body: body(piece, 0..<size, cut: await cut(of: 0..<size), pace: pace))
            }
            guard range.lowerBound < size else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            var sent = range
            var claimed = range
            switch misbehaviour {
            case "early-start": (sent, claimed) = (max(0, range.lowerBound - 1000)..<range.upperBound, max(0, range.lowerBound - 1000)..<range.upperBound)
            case "wrong-length": sent = range.lowerBound..<max(range.lowerBound, range.upperBound - 1000)
            case "short-ranges": (sent, claimed) = (range.lowerBound..<min(range.upperBound, range.lowerBound + 1 << 20), range.lowerBound..<min(range.upperBound, range.lowerBound + 1 << 20))
            default: break
            }
            headers[.contentRange] = "bytes \(claimed.lowerBound)-\(claimed.upperBound - 1)/\(size)"
            let response = Response(status: .partialContent, headers: headers, body: body(piece, sent, cut: await cut(of: sent), pace: pace))
            return misbehaviour == "compress-range" ? try await CompressionMiddleware.compress(response, with: .gzip) : response
        }
    }

    /// The bytes a `Range` value asks for, clamped to the file; `nil` for anything but one range.
    static func requestedRange(_ value: String, size: Int) -> Range<Int>? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let bounds = value.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0].trimmingCharacters(in: .whitespaces)), first >= 0 else { return nil }
        let lastText = bounds[1].trimmingCharacters(in: .whitespaces)
        if lastText.isEmpty { return first..<max(first, size) }
        guard let last = Int(lastText), last >= first else { return nil }
        return first..<max(first, min(size, last + 1))
    }

    /// `range` of the pattern, with `Content-Length`, cut or paced as asked.
    static func body(_ piece: ByteBuffer, _ range: Range<Int>, cut: Int?, pace: Int?) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            let stop = cut ?? range.upperBound
            let chunkLimit = pace.map { max(1024, $0 / 20) } ?? piece.readableBytes
            while offset < stop {
                let phase = offset % 251
                let count = min(stop - offset, piece.readableBytes - phase, chunkLimit)
                try await writer.write(piece.getSlice(at: piece.readerIndex + phase, length: count) ?? piece)
                offset += count
                if let pace { try await Task.sleep(for: .seconds(Double(count) / Double(pace))) }
            }
            guard stop == range.upperBound else { throw FaultInjectionMiddleware.InjectedDisconnect() }
            try await writer.finish(nil)
        }
    }
}
