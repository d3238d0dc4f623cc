import Testing

@testable import Courier

@Suite("Link header fields (RFC 8288)")
struct WebLinkTests {
    @Test("GitHub's form: several links, each with its rel")
    func several() {
        let links = WebLink.links(
            in: #"<https://api.example.com/items?page=2&per_page=10>; rel="next", <https://api.example.com/items?page=5>; rel="last""#)
        #expect(links.map(\.target) == ["https://api.example.com/items?page=2&per_page=10", "https://api.example.com/items?page=5"])
        #expect(links.map(\.relations) == [["next"], ["last"]])
    }

    @Test("relation types are split and lowercased; only the first rel counts; other parameters kept")
    func parameters() {
        let links = WebLink.links(in: #"</p/2>;REL="Next  Last"; rel=prev; title="a \"quoted\", title"; type=text/html"#)
        #expect(links == [WebLink(target: "/p/2", relations: ["next", "last"], parameters: ["title": #"a "quoted", title"#, "type": "text/html"])])
    }

    @Test("commas inside a target or a quoted value do not split links; tokens need no quotes")
    func commas() {
        let links = WebLink.links(in: #"</a,b>; rel=next , </c>;rel="prev,x""#)
        #expect(links.map(\.target) == ["/a,b", "/c"])
        #expect(links.map(\.relations) == [["next"], ["prev,x"]])
    }

    @Test(
        "a broken link is skipped up to the next comma; nothing parses to nothing",
        arguments: [
            "", ",,,", "no brackets; rel=next", "<a>; =x; ;", "<>; rel", "\"<x>\"",
        ])
    func broken(value: String) {
        for link in WebLink.links(in: value) { #expect(link.relations.isEmpty || link.target.isEmpty) }
        #expect(WebLink.links(in: value + #", </ok>; rel="next""#).last == WebLink(target: "/ok", relations: ["next"], parameters: [:]))
    }

    @Test("a field of any size is read in bounded work")
    func bounded() {
        let huge = String(repeating: #"</x>; rel="next", "#, count: 10_000)
        #expect(WebLink.links(in: huge).count == WebLink.mostLinks)
    }
}
