import Foundation

/// An HTTP Archive (HAR 1.2): exchanges as browsers, Charles and Proxyman export them, and as
/// ``HARRecorder`` writes them.
///
/// Only what replay needs is kept; other members of a file are ignored when it is read.
///
/// ```swift
/// let archive = try HARArchive(contentsOf: Bundle.module.url(forResource: "popular", withExtension: "har")!)
/// let stub = StubTransport(replaying: archive)
/// ```
public struct HARArchive: Codable, Sendable, Equatable {
    /// The archive's one member.
    public var log: Log

    /// The log of an archive.
    public struct Log: Codable, Sendable, Equatable {
        /// `"1.2"`.
        public var version: String
        /// The program that wrote it.
        public var creator: NameVersion
        /// The exchanges, in the order they started.
        public var entries: [Entry]
    }

    /// A name and version (the creator), or a name and value (a header field, a query item, a cookie).
    public struct NameVersion: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The version.
        public var version: String

        /// Creates a name and version.
        /// - Parameters:
        ///   - name: The name.
        ///   - version: The version.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// A header field, query item or cookie.
    public struct NameValue: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// Creates a name and value.
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One exchange.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, ISO 8601.
        public var startedDateTime: String
        /// How long the exchange took, in milliseconds.
        public var time: Double
        /// The request.
        public var request: Request
        /// The response.
        public var response: Response
        /// How the time was spent.
        public var timings: Timings

        private enum CodingKeys: String, CodingKey {
            case startedDateTime, time, request, response, cache, timings
        }

        /// Creates an entry.
        /// - Parameters:
        ///   - startedDateTime: When the request started, ISO 8601.
        ///   - time: How long the exchange took, in milliseconds.
        ///   - request: The request.
        ///   - response: The response.
        ///   - timings: How the time was spent.
        public init(startedDateTime: String, time: Double, request: Request, response: Response, timings: Timings) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.timings = timings
        }

        /// Reads an entry; the members replay does not need may be missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
            time = try container.decodeIfPresent(Double.self, forKey: .time) ?? 0
            request = try container.decode(Request.self, forKey: .request)
            response = try container.decode(Response.self, forKey: .response)
            timings = try container.decodeIfPresent(Timings.self, forKey: .timings) ?? Timings(send: 0, wait: time, receive: 0)
        }

        /// Writes the entry, with the empty `cache` object HAR requires.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(startedDateTime, forKey: .startedDateTime)
            try container.encode(time, forKey: .time)
            try container.encode(request, forKey: .request)
            try container.encode(response, forKey: .response)
            try container.encode([String: String](), forKey: .cache)
            try container.encode(timings, forKey: .timings)
        }
    }

    /// A request of an exchange.
    public struct Request: Codable, Sendable, Equatable {
        /// The method.
        public var method: String
        /// The full URL.
        public var url: String
        /// The version of HTTP the exchange used (`HTTP/1.1`, `HTTP/2`, `HTTP/3`), or `unknown`.
        public var httpVersion: String
        /// The header fields.
        public var headers: [NameValue]
        /// The query items.
        public var queryString: [NameValue]
        /// The cookies sent.
        public var cookies: [NameValue]
        /// The body, if any.
        public var postData: PostData?
        /// `-1`: unknown.
        public var headersSize: Int
        /// The body's size in bytes.
        public var bodySize: Int

        /// Creates a request.
        /// - Parameters:
        ///   - method: The method.
        ///   - url: The full URL.
        ///   - headers: The header fields.
        ///   - queryString: The query items.
        ///   - cookies: The cookies sent.
        ///   - postData: The body, if any.
        public init(method: String, url: String, headers: [NameValue], queryString: [NameValue], cookies: [NameValue], postData: PostData?) {
            self.method = method
            self.url = url
            self.httpVersion = "HTTP/1.1"
            self.headers = headers
            self.queryString = queryString
            self.cookies = cookies
            self.postData = postData
            self.headersSize = -1
            self.bodySize = postData.map { $0.text.utf8.count } ?? 0
        }

        private enum CodingKeys: String, CodingKey {
            case method, url, httpVersion, headers, queryString, cookies, postData, headersSize, bodySize
        }

        /// Reads a request; the members replay does not need may be missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            url = try container.decode(String.self, forKey: .url)
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([NameValue].self, forKey: .headers) ?? []
            queryString = try container.decodeIfPresent([NameValue].self, forKey: .queryString) ?? []
            cookies = try container.decodeIfPresent([NameValue].self, forKey: .cookies) ?? []
            postData = try container.decodeIfPresent(PostData.self, forKey: .postData)
            headersSize = try container.decodeIfPresent(Int.self, forKey: .headersSize) ?? -1
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        }
    }

    /// A request body.
    public struct PostData: Codable, Sendable, Equatable {
        /// The body's media type.
        public var mimeType: String
        /// The body as text.
        public var text: String

        /// Creates a request body.
        /// - Parameters:
        ///   - mimeType: The body's media type.
        ///   - text: The body as text.
        public init(mimeType: String, text: String) {
            self.mimeType = mimeType
            self.text = text
        }

        private enum CodingKeys: String, CodingKey { case mimeType, text }

        /// Reads a request body; a form captured as `params` only reads as empty text.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
            text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
        }
    }

    /// A response of an exchange.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code.
        public var status: Int
        /// The reason phrase.
        public var statusText: String
        /// The version of HTTP that carried the response (`HTTP/1.1`, `HTTP/2`, `HTTP/3`), or
        /// `unknown` when the transport did not say.
        public var httpVersion: String
        /// The header fields.
        public var headers: [NameValue]
        /// The cookies set.
        public var cookies: [NameValue]
        /// The body.
        public var content: Content
        /// The `Location`, if any.
        public var redirectURL: String
        /// `-1`: unknown.
        public var headersSize: Int
        /// The body's size in bytes.
        public var bodySize: Int

        /// Creates a response.
        /// - Parameters:
        ///   - status: The status code.
        ///   - statusText: The reason phrase.
        ///   - headers: The header fields.
        ///   - cookies: The cookies set.
        ///   - content: The body.
        ///   - redirectURL: The `Location`, if any.
        public init(status: Int, statusText: String, headers: [NameValue], cookies: [NameValue], content: Content, redirectURL: String) {
            self.status = status
            self.statusText = statusText
            self.httpVersion = "HTTP/1.1"
            self.headers = headers
            self.cookies = cookies
            self.content = content
            self.redirectURL = redirectURL
            self.headersSize = -1
            self.bodySize = content.size
        }

        private enum CodingKeys: String, CodingKey {
            case status, statusText, httpVersion, headers, cookies, content, redirectURL, headersSize, bodySize
        }

        /// Reads a response; the members replay does not need may be missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Int.self, forKey: .status)
            statusText = try container.decodeIfPresent(String.self, forKey: .statusText) ?? ""
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
            headers = try container.decodeIfPresent([NameValue].self, forKey: .headers) ?? []
            cookies = try container.decodeIfPresent([NameValue].self, forKey: .cookies) ?? []
            content = try container.decodeIfPresent(Content.self, forKey: .content) ?? Content(size: 0, mimeType: "", text: nil, encoding: nil)
            redirectURL = try container.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
            headersSize = try container.decodeIfPresent(Int.self, forKey: .headersSize) ?? -1
            bodySize = try container.decodeIfPresent(Int.self, forKey: .bodySize) ?? -1
        }
    }

    /// A response body.
    public struct Content: Codable, Sendable, Equatable {
        /// The body's size in bytes, decoded.
        public var size: Int
        /// The body's media type.
        public var mimeType: String
        /// The body: text, or Base64 when ``encoding`` says so.
        public var text: String?
        /// `"base64"` for a body that is not UTF-8 text.
        public var encoding: String?

        /// Creates a response body.
        /// - Parameters:
        ///   - size: The body's size in bytes.
        ///   - mimeType: Its media type.
        ///   - text: The body as text or Base64.
        ///   - encoding: `"base64"` when `text` is Base64.
        public init(size: Int, mimeType: String, text: String?, encoding: String?) {
            self.size = size
            self.mimeType = mimeType
            self.text = text
            self.encoding = encoding
        }

        /// The body's bytes.
        var bytes: Data {
            guard let text else { return Data() }
            if encoding == "base64" { return Data(base64Encoded: text) ?? Data() }
            return Data(text.utf8)
        }
    }

    /// How long each phase of an exchange took, in milliseconds; `-1` for a phase that did not
    /// happen or was not measured (HAR 1.2).
    public struct Timings: Codable, Sendable, Equatable {
        /// Resolving the host name.
        public var dns: Double
        /// Connecting, TLS included.
        public var connect: Double
        /// The TLS handshake.
        public var ssl: Double
        /// Sending the request.
        public var send: Double
        /// Waiting for the response.
        public var wait: Double
        /// Receiving the response.
        public var receive: Double

        /// Creates timings.
        /// - Parameters:
        ///   - dns: Resolving the host name; `-1` by default.
        ///   - connect: Connecting; `-1` by default.
        ///   - ssl: The TLS handshake; `-1` by default.
        ///   - send: Sending the request.
        ///   - wait: Waiting for the response.
        ///   - receive: Receiving the response.
        public init(dns: Double = -1, connect: Double = -1, ssl: Double = -1, send: Double, wait: Double, receive: Double) {
            self.dns = dns
            self.connect = connect
            self.ssl = ssl
            self.send = send
            self.wait = wait
            self.receive = receive
        }

        private enum CodingKeys: String, CodingKey {
            case dns, connect, ssl, send, wait, receive
        }

        /// Reads timings; the phases HAR makes optional may be missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            dns = try container.decodeIfPresent(Double.self, forKey: .dns) ?? -1
            connect = try container.decodeIfPresent(Double.self, forKey: .connect) ?? -1
            ssl = try container.decodeIfPresent(Double.self, forKey: .ssl) ?? -1
            send = try container.decodeIfPresent(Double.self, forKey: .send) ?? 0
            wait = try container.decodeIfPresent(Double.self, forKey: .wait) ?? 0
            receive = try container.decodeIfPresent(Double.self, forKey: .receive) ?? 0
        }
    }

    /// Creates an archive.
    /// - Parameter entries: The exchanges.
    public init(entries: [Entry]) {
        log = Log(version: "1.2", creator: NameVersion(name: "CourierTesting", version: "1.0"), entries: entries)
    }

    /// Reads an archive from a HAR file.
    /// - Parameter file: The file.
    /// - Throws: The file's read error, or `DecodingError` when it is not HAR.
    public init(contentsOf file: URL) throws {
        self = try JSONDecoder().decode(HARArchive.self, from: Data(contentsOf: file))
    }

    /// Writes the archive as a HAR file, pretty-printed with sorted keys so diffs stay small.
    /// - Parameter file: The file, created or replaced.
    /// - Throws: The encoding or write error.
    public func write(to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: file, options: .atomic)
    }
}
