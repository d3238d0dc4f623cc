@testable import Courier
import Foundation
import HTTPTypes
import TestSupport
import Testing

@Suite("The cookie jar follows RFC 6265")
struct CookieJarTests {
    /// The jars' wall clock, a fresh one for each test.
    let date = MovableDate(Date(timeIntervalSince1970: 1_800_000_000))

    func jar() -> CookieJar {
        CookieJar(clock: { [date] in date.now })
    }

    func store(_ jar: CookieJar, _ values: String..., from url: String) {
        var fields = HTTPFields()
        for value in values { fields.append(HTTPField(name: .setCookie, value: value)) }
        jar.store(from: fields, for: URL(string: url)!)
    }

    func sent(_ jar: CookieJar, to url: String) -> String? {
        jar.fieldValue(for: URL(string: url)!)
    }

    @Test("a host-only cookie goes to its host only; a Domain cookie to subdomains too")
    func domains() {
        let jar = jar()
        store(jar, "host=1", "wide=2; Domain=example.com", from: "https://api.example.com/")
        #expect(sent(jar, to: "https://api.example.com/x") == "host=1; wide=2")
        #expect(sent(jar, to: "https://www.example.com/x") == "wide=2")
        #expect(sent(jar, to: "https://example.com/x") == "wide=2")
        #expect(sent(jar, to: "https://notexample.com/x") == nil)
    }

    @Test("a Domain the host is not in, or a bare top-level domain, is refused")
    func foreignDomains() {
        let jar = jar()
        store(jar, "a=1; Domain=other.com", "b=2; Domain=com", "c=3; Domain=.example.com", from: "https://api.example.com/")
        #expect(jar.cookies.map(\.name) == ["c"])
        #expect(jar.cookies.first?.domain == "example.com")
    }

    @Test("paths match whole segments; the default path is the request's directory")
    func paths() {
        let jar = jar()
        store(jar, "root=1; Path=/", "docs=2; Path=/docs", "dir=3", from: "https://example.com/api/v1/items")
        #expect(sent(jar, to: "https://example.com/docs/a") == "docs=2; root=1")
        #expect(sent(jar, to: "https://example.com/docsify") == "root=1")
        #expect(sent(jar, to: "https://example.com/api/v1/other") == "dir=3; root=1")
        #expect(sent(jar, to: "https://example.com/api/v2") == "root=1")
    }

    @Test("Secure cookies go over https only and cannot be set over http")
    func secure() {
        let jar = jar()
        store(jar, "s=1; Secure", from: "https://example.com/")
        store(jar, "t=2; Secure", from: "http://example.com/")
        #expect(sent(jar, to: "https://example.com/") == "s=1")
        #expect(sent(jar, to: "http://example.com/") == nil)
    }

    @Test("Max-Age wins over Expires; expired and zero-age cookies are removed")
    func expiry() {
        let jar = jar()
        store(jar, "short=1; Max-Age=60; Expires=Wed, 21 Oct 2099 07:28:00 GMT", "session=2", from: "https://example.com/")
        store(jar, "old=3; Expires=Wed, 21 Oct 2015 07:28:00 GMT", from: "https://example.com/")
        #expect(sent(jar, to: "https://example.com/") == "short=1; session=2")
        date.advance(seconds: 61)
        #expect(sent(jar, to: "https://example.com/") == "session=2")
        store(jar, "session=; Max-Age=0", from: "https://example.com/")
        #expect(jar.cookies.isEmpty)
    }

    @Test("a cookie with the same name, domain and path replaces the old one")
    func replacement() {
        let jar = jar()
        store(jar, "a=1", from: "https://example.com/")
        store(jar, "a=2", from: "https://example.com/")
        #expect(sent(jar, to: "https://example.com/") == "a=2")
        #expect(jar.cookies.count == 1)
    }

    @Test("a hostile server cannot fill memory: oversized cookies are refused, counts are capped")
    func bounded() {
        let jar = jar()
        store(jar, "big=" + String(repeating: "x", count: 5000), from: "https://example.com/")
        #expect(jar.cookies.isEmpty)
        var fields = HTTPFields()
        for index in 0..<200 { fields.append(HTTPField(name: .setCookie, value: "c\(index)=\(index)")) }
        jar.store(from: fields, for: URL(string: "https://example.com/")!)
        #expect(jar.cookies.count == CookieJar.perDomain)
        #expect(jar.cookies.contains { $0.name == "c199" })
    }

    @Test("malformed Set-Cookie values are ignored")
    func malformed() {
        let jar = jar()
        store(jar, "no-equals-sign", "=nameless", "; Path=/", from: "https://example.com/")
        #expect(jar.cookies.isEmpty)
    }
}
