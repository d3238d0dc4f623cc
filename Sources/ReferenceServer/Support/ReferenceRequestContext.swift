import Hummingbird
import NIOCore

/// The reference server's request context: Hummingbird's basic one plus the connection, so a
/// fault can close it before anything is answered.
struct ReferenceRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request arrived on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
