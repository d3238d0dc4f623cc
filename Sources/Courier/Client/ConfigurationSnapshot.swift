/// One configuration, frozen: what a call reads its settings from.
final class ConfigurationSnapshot: Sendable {
    let value: Configuration
    /// What applies to each request of a call, the first and every redirect's.
    let hops: HopPolicy

    init(_ value: Configuration) {
        self.value = value
        var credentials = value.credentialFields
        for middleware in value.middleware {
            credentials.formUnion(middleware.credentialFields)
        }
        self.hops = HopPolicy(
            redirectLimit: value.redirectLimit,
            credentialFields: credentials,
            allowsInsecureRedirects: value.allowsInsecureRedirects,
            allowsCrossOriginBodyRedirects: value.allowsCrossOriginBodyRedirects,
            cookieJar: value.cookieJar
        )
    }
}
