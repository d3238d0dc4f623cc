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
}
