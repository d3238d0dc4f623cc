import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Errors")
struct CourierErrorTests {
    @Test(
        "transport errors map to the kinds an app handles",
        arguments: [
            (URLError.Code.notConnectedToInternet, CourierError.Kind.notConnected), (.cannotConnectToHost, .notConnected),
            (.networkConnectionLost, .notConnected), (.cannotFindHost, .notConnected), (.dnsLookupFailed, .notConnected),
            (.timedOut, .timedOut), (.cancelled, .cancelled), (.badServerResponse, .invalidResponse),
            (.dataLengthExceedsMaximum, .responseTooLarge), (.unsupportedURL, .invalidRequest), (.unknown, .transportFailed),
        ])
    func urlErrors(code: URLError.Code, kind: CourierError.Kind) {
        let error = CourierError(URLError(code))
        #expect(error.kind == kind)
        #expect(error.underlyingError is URLError)
    }

    @Test(
        "socket errors map to kinds",
        arguments: [
            (POSIXErrorCode.ECONNREFUSED, CourierError.Kind.notConnected), (.ECONNRESET, .notConnected),
            (.ENETUNREACH, .notConnected), (.ETIMEDOUT, .timedOut), (.EACCES, .transportFailed),
        ])
    func posixErrors(code: POSIXErrorCode, kind: CourierError.Kind) {
        #expect(CourierError(POSIXError(code)).kind == kind)
    }

    @Test("task cancellation is the cancelled kind")
    func cancellation() {
        #expect(CourierError(CancellationError()).kind == .cancelled)
    }

    @Test("a CourierError passes through unchanged")
    func passThrough() {
        let original = CourierError(.forbidden, message: "No")
        #expect(CourierError(original).message == "No")
    }

    @Test(
        "every kind has a readable description",
        arguments: [
            CourierError.Kind.notConnected, .timedOut, .cancelled, .unauthorized, .forbidden, .notFound, .rateLimited,
            .clientError, .serverError, .unexpectedStatus, .invalidRequest, .encodingFailed, .decodingFailed,
            .invalidResponse, .responseTooLarge, .transportFailed,
        ])
    func descriptions(kind: CourierError.Kind) {
        let description = CourierError(kind).localizedDescription
        #expect(description.hasSuffix("."))
        #expect(!description.contains("Courier"))
    }

    @Test("the no-internet kind reads as the seed app expects")
    func offlineText() {
        #expect(CourierError(.notConnected).localizedDescription == "No Internet connection.")
    }

    @Test("the developer description names the request but no header values")
    func developerDescription() {
        var error = CourierError(.serverError, message: "Boom")
        error.request = HTTPRequest(method: .get, scheme: "https", authority: "h", path: "/x", headerFields: [.authorization: "JWT secret"])
        error.status = .internalServerError
        #expect(error.description == "CourierError.serverError GET https://h/x → 500: Boom")
        #expect(!error.description.contains("secret"))
    }

    @Test("a response not understood says what was wrong with it, for the user too")
    func invalidResponseSaysWhat() {
        let wrongType = CourierError(.invalidResponse, message: "The server answered with text/html, not an event stream.")
        #expect(wrongType.localizedDescription == "The server answered with text/html, not an event stream.")
        #expect(CourierError(.invalidResponse).localizedDescription == "The server's response was not understood.")
    }

    @Test("a description joins its sentences without doubled punctuation")
    func descriptionPunctuation() throws {
        let notJSON = ResponseReader.decodingFailure(
            DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON. Unexpected end at byte 46."))
        )
        var line = CourierError(.decodingFailed, message: "Line 3 could not be read.", underlyingError: notJSON)
        line.codingPath = "items[3]"
        let description = line.description
        #expect(description.hasPrefix("CourierError.decodingFailed: at items[3]: Line 3 could not be read: "))
        #expect(description.hasSuffix("Unexpected end at byte 46."))
        #expect(!description.contains(".:") && !description.contains(".."))
        #expect(ErrorText.joined(["The body was cut.", "byte 46.."]) == "The body was cut: byte 46.")
        #expect(ErrorText.joined(["Wait...", "then this."]) == "Wait...: then this.")
    }
}

@Suite("Public-key pins")
struct PublicKeyPinTests {
    @Test("a pin reads its base64 form, with or without the sha256/ prefix, and prints it back")
    func base64() throws {
        let digest = (0..<32).map { UInt8($0) }
        let text = Data(digest).base64EncodedString()
        let pin = try PublicKeyPin(sha256Base64: text)
        #expect(pin.sha256 == digest)
        #expect(try PublicKeyPin(sha256Base64: "sha256/" + text) == pin)
        #expect(pin.description == "sha256/" + text)
    }

    @Test("text that is not base64 of 32 bytes is an invalid request", arguments: ["", "not base64!", "AAAA", Data(count: 31).base64EncodedString()])
    func invalid(text: String) {
        let error = #expect(throws: CourierError.self) { try PublicKeyPin(sha256Base64: text) }
        #expect(error?.kind == .invalidRequest)
    }

    @Test("hosts are compared case-insensitively; a host without pins passes")
    func permits() throws {
        let pin = try PublicKeyPin(sha256: Array(repeating: 9, count: 32))
        let trust = ServerTrust(pins: ["API.Example.com": [pin]])
        #expect(trust.permits(host: "api.example.com", publicKeySHA256: pin.sha256))
        #expect(!trust.permits(host: "api.example.com", publicKeySHA256: Array(repeating: 8, count: 32)))
        #expect(trust.permits(host: "other.example.com", publicKeySHA256: Array(repeating: 8, count: 32)))
        #expect(trust.pins(forHost: "other.example.com") == nil)
    }
}

@Suite("SubjectPublicKeyInfo from a raw key")
struct SubjectPublicKeyInfoTests {
    @Test("an RSA-2048 key gets the standard 24-byte header, with long-form DER lengths")
    func rsa2048() throws {
        // The PKCS#1 encoding of a 2048-bit key with exponent 65537 is 270 bytes.
        let raw = [UInt8](repeating: 0x5A, count: 270)
        let der = try #require(SubjectPublicKeyInfo.der(algorithm: .rsa, keySizeInBits: 2048, rawKey: raw))
        let header: [UInt8] = [
            0x30, 0x82, 0x01, 0x22, 0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01,
            0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0F, 0x00,
        ]
        #expect(Array(der.prefix(header.count)) == header)
        #expect(Array(der.dropFirst(header.count)) == raw)
    }

    @Test("an EC curve pins do not cover gives no SubjectPublicKeyInfo")
    func unknownCurve() {
        #expect(SubjectPublicKeyInfo.der(algorithm: .ellipticCurve, keySizeInBits: 224, rawKey: [4]) == nil)
    }
}
