// Tuning the transport means configuring an `HTTPClient` (pool, proxy, HTTP/2, timeouts):
// re-exported so that `import CourierAsyncHTTPClient` is the only import and the only package line.
//
//     var configuration = HTTPClient.courierConfiguration()
//     configuration.proxy = .server(host: "proxy.internal", port: 3128)
//     let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
//     let api = Client(baseURL: base, transport: .asyncHTTPClient(client))
#if AsyncHTTPClient
@_exported import AsyncHTTPClient
#endif
