import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Errors")
struct CourierErrorTests {
    @Test("transport errors map to the kinds an app handles", arguments: [
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

    @Test("socket errors map to kinds", arguments: [
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

    @Test("every kind has a readable description", arguments: [
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
}
