import Foundation
import HTTPTypes

extension RequestBuilder {
    /// What `request` itself says, encoded and checked as ``prepare(_:configuration:)`` would,
    /// without the common query and header fields and without any credential field or query
    /// parameter (`snapshot.hops.credentialFields`).
    static func deferred<Response>(
        _ request: Request<Response>,
        snapshot: ConfigurationSnapshot
    ) throws(CourierError) -> DeferredRequest {
        var configuration = snapshot.value
        configuration.commonParameters.query = [:]
        configuration.commonParameters.headerFields = [:]
        let credentials = snapshot.hops.credentialFields
        var own = request
        own.query = QueryParameters(request.query.items.filter { !credentials.isCredential(queryName: $0.name) })
        for name in credentials.headerNames { own.headerFields[name] = nil }
        let prepared = try prepare(own, configuration: configuration)
        let target = prepared.request.path ?? ""
        let query = target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } ?? ""
        return DeferredRequest(
            method: request.method,
            name: prepared.name,
            pathTemplate: request.path.template,
            path: request.path.escaped,
            query: query,
            queryNames: own.query.items.map(\.name),
            headerFields: prepared.request.headerFields,
            payload: prepared.payload,
            requiresAuthentication: request.requiresAuthentication,
            timeout: request.timeout,
            baseURL: request.baseURL
        )
    }

    /// A deferred request as it is sent now: the client's base URL, common query and header
    /// fields of this moment added (the endpoint's own win), credentials left to the middleware.
    static func prepare(_ deferred: DeferredRequest, snapshot: ConfigurationSnapshot) throws(CourierError) -> PreparedRequest {
        let configuration = snapshot.value
        let base = try Self.base(deferred.baseURL, configuration: configuration)
        var query = Array(deferred.query.utf8)
        let common = QueryParameters(configuration.commonParameters.query.items.filter { !deferred.queryNames.contains($0.name) })
        var commonQuery: [UInt8] = []
        configuration.queryEncoder.append(common, for: .query, to: &commonQuery)
        if !commonQuery.isEmpty {
            if !query.isEmpty { query.append(UInt8(ascii: "&")) }
            query.append(contentsOf: commonQuery)
        }
        var target = base.path + "/" + deferred.path
        if !query.isEmpty { target += "?" + String(decoding: query, as: UTF8.self) }

        let headerFields = Self.headerFields(deferred.headerFields, over: configuration.commonParameters.headerFields)
        return PreparedRequest(
            request: HTTPRequest(
                method: deferred.method,
                scheme: base.scheme,
                authority: base.authority,
                path: target,
                headerFields: headerFields
            ),
            payload: deferred.payload,
            timeout: deferred.timeout ?? configuration.timeout,
            name: deferred.name,
            requiresAuthentication: deferred.requiresAuthentication,
            // Queued work drains in the background: the screen's calls go first.
            priority: .background,
            origin: base.origin
        )
    }
}
