import Foundation
import HTTPTypes

/// Turns a ``Request`` and a ``Configuration`` into a ``PreparedRequest``: a pure function, no
/// network, no shared state.
///
/// Precedence, from strongest: the endpoint's own values, then common parameters. A body's
/// `Content-Type` is set only when the endpoint did not set one; `Accept: application/json` only
/// when the response is decoded from JSON and the endpoint set no `Accept`.
enum RequestBuilder {
    /// `Accept: application/json`, checked once rather than on every request.
    private static let acceptJSON = HTTPField(name: .accept, value: "application/json")

    /// ``prepare(_:configuration:)`` with a call's configuration snapshot: the configuration is
    /// read in place, where an `async` caller reading it would copy it into its frame first.
    static func prepare<Response>(
        _ request: Request<Response>,
        snapshot: ConfigurationSnapshot
    ) throws(CourierError) -> PreparedRequest {
        try prepare(request, configuration: snapshot.value)
    }

    static func prepare<Response>(
        _ request: Request<Response>,
        configuration: Configuration
    ) throws(CourierError) -> PreparedRequest {
        if let validationFailure = request.validationFailure {
            throw CourierError(.invalidRequest, message: validationFailure)
        }
        if let problem = request.path.problem {
            throw CourierError(.invalidRequest, message: problem)
        }
        let base = try Self.base(request.baseURL, configuration: configuration)

        // The request target in one buffer: base path, "/", the endpoint's path, "?" and the query.
        var target: [UInt8] = []
        target.reserveCapacity(base.path.utf8.count + request.path.escaped.utf8.count + 64)
        target.append(contentsOf: base.path.utf8)
        target.append(UInt8(ascii: "/"))
        target.append(contentsOf: request.path.escaped.utf8)
        let pathLength = target.count
        target.append(UInt8(ascii: "?"))
        configuration.queryEncoder.append(request.query, then: configuration.commonParameters.query, for: .query, to: &target)
        if target.count == pathLength + 1 { target.removeLast() }

        var headerFields = Self.headerFields(request.headerFields, over: configuration.commonParameters.headerFields)
        if request.decoding.expectsJSON && !headerFields.contains(.accept) {
            headerFields.append(Self.acceptJSON)
        }

        var payload: RequestPayload?
        if let body = request.body {
            let encoded = try encode(
                body,
                encoder: request.encoder ?? configuration.encoder,
                configuration: configuration
            )
            payload = encoded.payload
            if headerFields[.contentType] == nil { headerFields[.contentType] = encoded.contentType }
        }

        let httpRequest = HTTPRequest(
            method: request.method,
            scheme: base.scheme,
            authority: base.authority,
            path: String(decoding: target, as: UTF8.self),
            headerFields: headerFields
        )
        return PreparedRequest(
            request: httpRequest,
            payload: payload,
            timeout: request.timeout ?? configuration.timeout,
            name: request.name ?? Self.name(request.method, request.path),
            requiresAuthentication: request.requiresAuthentication,
            priority: request.priority,
            origin: base.origin
        )
    }

    /// The parts of an endpoint's own base URL, else of the client's.
    static func base(_ own: BaseURL?, configuration: Configuration) throws(CourierError) -> BaseURL.Parts {
        // Not `(own ?? configuration.baseURL).parts()`: that copies the base URL first.
        if let own { return try own.parts() }
        return try configuration.baseURL.parts()
    }

    /// The client's `common` header fields with every field the endpoint sets itself (`own`)
    /// replaced by the endpoint's lines.
    static func headerFields(_ own: HTTPFields, over common: HTTPFields) -> HTTPFields {
        var headerFields = common
        guard !own.isEmpty else { return headerFields }
        for name in Set(own.map(\.name)) {
            headerFields[fields: name] = own[fields: name]
        }
        return headerFields
    }

    /// An endpoint's default name, its method and path template: `"GET movie/{}/videos"`, so
    /// that no path value reaches logs' endpoint field, metric labels or span names. Joined
    /// rather than interpolated (one allocation less per call).
    static func name(_ method: HTTPRequest.Method, _ path: Path) -> String {
        var name = method.rawValue
        name.reserveCapacity(method.rawValue.utf8.count + 1 + path.template.utf8.count)
        name.append(" ")
        name.append(path.template)
        return name
    }

    // swift-format-ignore
    private static func encode(
        _ body: RequestBody,
        encoder: JSONEncoder,
        configuration: Configuration
    ) throws(CourierError) -> (payload: RequestPayload, contentType: String) {
        switch body.content {
        case .json(let value):
            do {
                var data = try encoder.encode(value)
                let bodyFields = configuration.commonParameters.bodyFields
                if !bodyFields.isEmpty, case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: data) {
                    members.merge(bodyFields, uniquingKeysWith: { own, _ in own })
                    data = try JSONEncoder().encode(JSONValue.object(members))
                }
                return (.bytes(data), "application/json")
            } catch {
                throw CourierError(
                    .encodingFailed,
                    message: "The JSON body could not be encoded: \(error.localizedDescription)",
                    underlyingError: error
                )
            }
        case .form(let parameters):
            return (
                .bytes(Data(configuration.queryEncoder.encode(parameters, for: .formBody).utf8)),
                "application/x-www-form-urlencoded; charset=utf-8"
            )
        case .multipart(let form):
            let boundary = form.boundary()
            return (try .multipart(form, boundary: boundary), MultipartFormData.contentType(boundary: boundary))
        case .data(let data, let contentType):
            return (.bytes(data), contentType)
        case .file(let url, let contentType):
            // Streamed from disk by the transport when the request is sent.
            return (try .file(url), contentType)
        }
    }
}
