import HTTP
import TestSupport
import Testing

@Suite struct HTTPRequestParserTests {
    let parser = HTTPRequestParser()

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aSimpleRequestParses() {
        let input = Self.bytes("GET /v2/recordings?roomId=a%20b&page=2 HTTP/1.1\r\nHost: x\r\nAuthorization: T\r\n\r\n")
        guard case .request(let request, let consumed) = parser.parse(input) else {
            Issue.record("no request")
            return
        }
        #expect(consumed == input.count)
        #expect(request.method == "GET")
        #expect(request.path == "/v2/recordings")
        #expect(request.query == ["roomId": "a b", "page": "2"])
        #expect(request.header("authorization") == "T")
        #expect(request.keepAlive)
    }

    @Test func aBodyIsReadByContentLengthAndPipelinedRequestsSplit() {
        let input = Self.bytes("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        guard case .request(let first, let consumed) = parser.parse(input) else {
            Issue.record("no first request")
            return
        }
        #expect(first.body == Self.bytes("abc"))
        guard case .request(let second, _) = parser.parse(Array(input[consumed...])) else {
            Issue.record("no second request")
            return
        }
        #expect(second.path == "/b")
    }

    @Test func chunkedBodiesAreJoined() {
        let input = Self.bytes("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n")
        guard case .request(let request, let consumed) = parser.parse(input) else {
            Issue.record("no request")
            return
        }
        #expect(request.body == Self.bytes("abcde"))
        #expect(consumed == input.count)
    }

    @Test func partialInputNeedsMore() {
        #expect(parser.parse(Self.bytes("GET / HTTP/1.1\r\nHost: x\r\n")) == .needMore)
        #expect(parser.parse(Self.bytes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")) == .needMore)
    }

    @Test func connectionHeadersDecideKeepAlive() throws {
        guard case .request(let close, _) = parser.parse(Self.bytes("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")),
              case .request(let old, _) = parser.parse(Self.bytes("GET / HTTP/1.0\r\n\r\n"))
        else {
            Issue.record("no request")
            return
        }
        #expect(!close.keepAlive)
        #expect(!old.keepAlive)
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /\r\nHost: x\r\n\r\n", 400),
        ("get / HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET nothing HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nHost: x\r\nBad Name: y\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        // RFC 9112 §6.1: HTTP/1.0 has no transfer codings.
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 300) + "\r\n", 400),
    ])
    func malformedRequestsGetTheirStatus(input: String, status: Int) {
        guard case .failure(let seen, _) = parser.parse(Self.bytes(input)) else {
            Issue.record("\(input.debugDescription) was not refused")
            return
        }
        #expect(seen == status, "\(input.debugDescription)")
    }

    @Test func limitsAreEnforced() {
        let huge = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 20_000) + "\r\n\r\n"
        guard case .failure(431, _) = parser.parse(Self.bytes(huge)) else {
            Issue.record("a huge header was accepted")
            return
        }
        let longTarget = "GET /" + String(repeating: "a", count: 9_000)
        guard case .failure(414, _) = parser.parse(Self.bytes(longTarget)) else {
            Issue.record("a huge target was accepted")
            return
        }
        let many = "GET / HTTP/1.1\r\nHost: x\r\n" + (0..<200).map { "X\($0): y\r\n" }.joined() + "\r\n"
        guard case .failure(431, _) = parser.parse(Self.bytes(many)) else {
            Issue.record("200 headers were accepted")
            return
        }
    }

    /// A chunked body cannot make the buffer grow without bound: neither by tiny chunks with
    /// long extensions nor by a trailer that never ends.
    @Test func chunkedEncodingIsBoundedAroundTheBody() {
        let head = "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        let chunk = "1;" + String(repeating: "e", count: 200) + "\r\na\r\n"
        let padded = head + String(repeating: chunk, count: (2 * 1024 * 1024 + 70 * 1024) / chunk.utf8.count)
        guard case .failure(413, _) = parser.parse(Self.bytes(padded)) else {
            Issue.record("a padded chunked body was not refused")
            return
        }
        let endlessTrailer = head + "1\r\na\r\n0\r\nX: " + String(repeating: "t", count: 20_000)
        guard case .failure(431, _) = parser.parse(Self.bytes(endlessTrailer)) else {
            Issue.record("an endless trailer was not refused")
            return
        }
    }

    /// 100,000 random and mutated requests: the parser answers, never crashes.
    @Test func randomInputNeverCrashesTheParser() {
        var generator = SeededGenerator(seed: 41)
        let seeds = [Self.bytes("POST /v2/recordings/start HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\n{}{}"),
                     Self.bytes("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
                     Self.bytes("GET /files/a.mp4 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n")]
        var requests = 0
        for round in 0..<100_000 {
            let input = round % 10 == 0 ? generator.bytes(Int(generator.next() % 200)) : generator.mutate(seeds[round % seeds.count])
            if case .request = parser.parse(input) { requests += 1 }
        }
        #expect(requests > 0)
    }
}
