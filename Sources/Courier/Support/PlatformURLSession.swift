import Foundation

/// Where this platform's URLSession differs in what it lets an app set: Apple's Foundation, or
/// swift-corelibs-foundation (Linux, Windows).
enum PlatformURLSession {
    /// Whether URLSession here ignores `connectionProxyDictionary` and never asks for a client
    /// certificate: swift-corelibs-foundation does both.
    static let ignoresConnectionSettings: Bool = {
        #if canImport(FoundationNetworking)
        true
        #else
        false
        #endif
    }()

    /// `NSURLAuthenticationMethodClientCertificate`, which swift-corelibs-foundation does not
    /// define (it never asks for a client certificate); Apple's constant where there is one.
    static let clientCertificateMethod: String = {
        #if canImport(FoundationNetworking)
        "NSURLAuthenticationMethodClientCertificate"
        #else
        NSURLAuthenticationMethodClientCertificate
        #endif
    }()

    /// Whether the SDK documents every `connectionProxyDictionary` key a ``Proxy`` needs (HTTPS,
    /// SOCKS, exceptions): macOS only; iOS, tvOS and visionOS document the HTTP keys alone.
    static let documentsProxyDictionaryKeys: Bool = {
        #if os(macOS)
        true
        #else
        false
        #endif
    }()

    /// Whether URLSession sends a body stream chunked whatever the request's `Content-Length`
    /// says: libcurl does, so there the length is left out, since a request with both would be
    /// malformed; Apple's URL loading sends the stream with the length the request gives.
    static let sendsBodyStreamsChunked: Bool = {
        #if canImport(FoundationNetworking)
        true
        #else
        false
        #endif
    }()
}

/// What a stream property holds: Foundation on Linux types it `AnyObject`, Apple's `Any`.
#if canImport(FoundationNetworking)
typealias StreamPropertyValue = AnyObject
#else
typealias StreamPropertyValue = Any
#endif
