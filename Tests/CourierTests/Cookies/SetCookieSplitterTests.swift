@testable import Courier
import Foundation
import HTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Set-Cookie fields that Foundation joined with \", \" come apart again, one per cookie")
struct SetCookieSplitterTests {
    @Test("three cookies joined by Foundation are three values again")
    func threeCookies() {
        #expect(SetCookieSplitter.values(in: "a=1; Path=/, b=2; Path=/, c=3; Path=/") == ["a=1; Path=/", "b=2; Path=/", "c=3; Path=/"])
        #expect(SetCookieSplitter.values(in: "a=1,b=2") == ["a=1", "b=2"])
    }

    @Test("the comma of an Expires date is not a separator")
    func expiresDates() {
        let first = "id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure"
        let second = "lang=en; expires=Thu, 01 Jan 2037 00:00:00 GMT; Path=/"
        #expect(SetCookieSplitter.values(in: first) == [first])
        #expect(SetCookieSplitter.values(in: "\(first), \(second)") == [first, second])
        // The obsolete RFC 850 date has a comma after the whole day name.
        let rfc850 = "old=1; expires=Wednesday, 21-Oct-15 07:28:00 GMT"
        #expect(SetCookieSplitter.values(in: "\(rfc850), next=2") == [rfc850, "next=2"])
    }

    @Test("a comma inside a quoted value stays in the value")
    func quotedValues() {
        #expect(SetCookieSplitter.values(in: #"q="x, y=z"; Path=/, b=2"#) == [#"q="x, y=z"; Path=/"#, "b=2"])
        #expect(SetCookieSplitter.values(in: #"q = "a,b=c", r="", s=1"#) == [#"q = "a,b=c""#, #"r="""#, "s=1"])
        // A quote that does not open a value, or never closes, quotes nothing.
        #expect(SetCookieSplitter.values(in: #"a=x"y, b=2"#) == [#"a=x"y"#, "b=2"])
        #expect(SetCookieSplitter.values(in: #"a="open, b=2, c=3"#) == [#"a="open"#, "b=2", "c=3"])
    }

    @Test("commas not followed by a name and = stay; empty pieces and spaces around values go")
    func otherCommas() {
        #expect(SetCookieSplitter.values(in: "list=a,b,c") == ["list=a,b,c"])
        #expect(SetCookieSplitter.values(in: "a=1, 2 3=x") == ["a=1, 2 3=x"])
        #expect(SetCookieSplitter.values(in: "  a=1 ,  b=2  ") == ["a=1", "b=2"])
        #expect(SetCookieSplitter.values(in: ", a=1,, b=2") == ["a=1,", "b=2"])
        #expect(SetCookieSplitter.values(in: "") == [])
        #expect(SetCookieSplitter.values(in: " , ") == [","])
        #expect(SetCookieSplitter.values(in: "a=1, __Host-id=2, x.y=3") == ["a=1", "__Host-id=2", "x.y=3"])
    }

    @Test("an HTTPURLResponse's joined Set-Cookie becomes one field per cookie; other fields stay whole")
    func responseConversion() throws {
        let url = try #require(URL(string: "https://api.example.com/login"))
        let joined = "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT, b=2; Path=/, c=3"
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Set-Cookie": joined, "Cache-Control": "no-cache, no-store"])
        )
        let fields = SessionTransport.headerFields(of: response)
        #expect(fields[values: .setCookie] == ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "b=2; Path=/", "c=3"])
        #expect(fields[.cacheControl] == "no-cache, no-store")
        let jar = CookieJar()
        jar.store(from: fields, for: url)
        #expect(jar.cookies.map(\.name).sorted() == ["a", "b", "c"])
    }
}
