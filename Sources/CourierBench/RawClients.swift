import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The same workloads sent without Courier, as a careful user would write them by hand: the URL
/// built with `URLComponents`, the body collected, `JSONDecoder`.
struct RawClients: Sendable {
    let baseURL: String
    let httpClient: HTTPClient
    let session: URLSession

    struct BadResponse: Error {}

    func url(for workload: Workload) throws -> URL {
        guard var components = URLComponents(string: baseURL) else { throw BadResponse() }
        components.path = "/" + workload.path
        components.queryItems = workload.query(number: Workload.nextNumber())
        guard let url = components.url else { throw BadResponse() }
        return url
    }

    func asyncHTTPClient(_ workload: Workload) async throws {
        var request = HTTPClientRequest(url: try url(for: workload).absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        if workload == .postJSON {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: Workload.postBody))
        }
        let response = try await httpClient.execute(request, timeout: .seconds(30))
        guard response.status == .ok else { throw BadResponse() }
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        try workload.decode(Data(body.readableBytesView), with: JSONDecoder())
    }

    func urlSession(_ workload: Workload) async throws {
        var request = URLRequest(url: try url(for: workload))
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if workload == .postJSON {
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Workload.postBody
        }
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw BadResponse() }
        try workload.decode(data, with: JSONDecoder())
    }
}
