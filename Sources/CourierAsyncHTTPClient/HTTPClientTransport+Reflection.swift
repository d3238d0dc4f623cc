// Compiled with the package trait `AsyncHTTPClient`; without it this module is empty.
#if AsyncHTTPClient
import Courier

extension HTTPClientTransport: CustomReflectable {
    /// The codings it decodes and the hosts it pins, never its `HTTPClient`s: their configuration
    /// holds a proxy's Basic credentials and the TLS settings hold the client certificate's key,
    /// which `dump(_:)` would otherwise print.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "contentCodings": contentCodings.map(\.description).sorted(),
                "pinnedHosts": pinnedHosts.sorted(),
                "ownsClients": ownsClients,
            ],
            displayStyle: .struct
        )
    }
}
#endif
