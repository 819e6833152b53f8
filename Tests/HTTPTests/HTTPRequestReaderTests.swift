import HTTP
import TestSupport
import Testing

/// The reader a connection uses: the same requests whatever pieces the bytes arrive in, a
/// chunked body decoded as it comes, and the bytes past a request kept for the next one.
@Suite struct HTTPRequestReaderTests {
    static let corpus: [String] = [
        "GET /a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n",
        "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello",
        "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nTrailer: x\r\n\r\n",
        "\r\nGET /d HTTP/1.0\r\n\r\n",
        "PUT /e HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ]

    static func requests(_ pieces: [[UInt8]]) -> [HTTPRequest] {
        var reader = HTTPRequestReader()
        var found: [HTTPRequest] = []
        for piece in pieces {
            reader.append(piece)
            while case .request(let request, _) = reader.next() { found.append(request) }
        }
        return found
    }

    /// Every request of the corpus, pipelined, split at random places: always the same five.
    @Test func anySplitGivesTheSameRequests() {
        let whole = Array(Self.corpus.joined().utf8)
        let expected = Self.requests([whole])
        #expect(expected.map(\.path) == ["/a", "/b", "/c", "/d", "/e"])
        #expect(expected[2].body == Array("abc0123456789abcdef".utf8))
        var random = SeededGenerator(seed: 11)
        for _ in 0..<300 {
            var pieces: [[UInt8]] = []
            var index = 0
            while index < whole.count {
                let length = min(whole.count - index, 1 + Int(random.next() % 40))
                pieces.append(Array(whole[index..<(index + length)]))
                index += length
            }
            #expect(Self.requests(pieces) == expected)
        }
        #expect(Self.requests(whole.map { [$0] }) == expected, "a byte at a time")
    }

    /// Finding 11: a chunked body trickled in small pieces is decoded as it comes; the buffer
    /// never holds more than what has not been decoded yet.
    @Test func aTrickledChunkedBodyIsDecodedAsItComes() {
        var reader = HTTPRequestReader()
        let head = Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        reader.append(head)
        #expect(reader.next() == .needMore)
        var most = 0
        for index in 0..<50_000 {
            reader.append(Array("1\r\n\(index % 10)\r\n".utf8))
            #expect(reader.next() == .needMore)
            most = max(most, reader.bufferedCount)
        }
        reader.append(Array("0\r\n\r\n".utf8))
        guard case .request(let request, let consumed) = reader.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.body.count == 50_000 && consumed == head.count + 50_000 * 6 + 5)
        // What is held is the body decoded so far and at most a chunk line: never the encoding.
        #expect(most <= 50_000 + 16, "the decoded bytes are not held twice: \(most)")
        #expect(reader.bufferedCount == 0)
    }

    @Test func theBytesPastARequestAreKept() {
        var reader = HTTPRequestReader()
        reader.append(Array("GET /ws HTTP/1.1\r\nHost: h\r\n\r\n\u{81}\u{05}hello".utf8))
        guard case .request = reader.next() else {
            Issue.record("no request")
            return
        }
        #expect(reader.takeBuffered() == Array("\u{81}\u{05}hello".utf8))
        #expect(reader.bufferedCount == 0)
    }

    @Test func aFailureEndsTheConnectionsReading() {
        var reader = HTTPRequestReader()
        reader.append(Array("GET / HTTP/2.0\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(reader.next() == .failure(status: 505, reason: "only HTTP/1.1 and 1.0"))
        guard case .failure = reader.next() else {
            Issue.record("read on after a failure")
            return
        }
    }

    /// A body of small chunks near the size limit, in network-sized pieces: decoded once (no
    /// copy of the body so far per chunk or per read), and counted in what the reader holds.
    @Test func aBodyOfSmallChunksIsDecodedOnceAndCounted() {
        var reader = HTTPRequestReader()
        reader.append(Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        var encoding: [UInt8] = []
        for index in 0..<40_000 { encoding += Array("18\r\n\(String(repeating: String(index % 10), count: 24))\r\n".utf8) }
        encoding += Array("0\r\n\r\n".utf8)
        var held = 0
        var index = 0
        while index < encoding.count {
            reader.append(encoding[index..<min(encoding.count, index + 4096)])
            index += 4096
            if case .needMore = reader.next() { held = max(held, reader.bufferedCount) }
        }
        #expect(held >= 900_000, "the decoded body counts as held: \(held)")
        // The last piece completed it: the request came out of the last call to next().
        var final = HTTPRequestReader()
        final.append(Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n".utf8) + encoding)
        guard case .request(let request, _) = final.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.body.count == 960_000 && Array(request.body.prefix(24)) == [UInt8](repeating: UInt8(ascii: "0"), count: 24))
    }
}
