import Foundation
import FuzzInput

@testable import Courier

/// Any `Link` field value through the parser pagination uses, and each `next` target through the
/// same-origin step: links, `nil` or a `CourierError`, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let links = WebLink.links(in: input.restText)
    if links.count > WebLink.mostLinks { fatalError("\(links.count) links from one field") }
    guard let page = URL(string: "https://api.example.com/v1/items?page=1") else { return 0 }
    let request = Request<Data>(.get, "items", query: ["per_page": 10])
    for link in links where link.relations.contains("next") {
        _ = try? request.following(link.target, from: page)
    }
    return 0
}
