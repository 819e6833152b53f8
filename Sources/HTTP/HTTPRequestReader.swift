/// Reads HTTP/1.1 requests (RFC 9112) from a connection's bytes as they arrive, in one pass:
/// the search for the head's end resumes where the last one stopped, and a chunked body is
/// decoded as its chunks come, so a request costs time linear in its bytes however finely it is
/// trickled. A pure state machine: `append` bytes, then `next()` until it needs more.
public struct HTTPRequestReader: Sendable {
    public let limits: HTTPRequestParser.Limits
    /// Bytes received and not yet consumed start at `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the head's CRLF CRLF resumes (an index into `buffer`).
    private var headScan = 0
    private var state = State.head

    private enum State: Sendable {
        case head
        /// The head is read; the body has this many bytes.
        case body(HTTPRequest, length: Int, headBytes: Int)
        case chunked(HTTPRequest, ChunkedBody, headBytes: Int)
        /// A failure was reported: nothing more is read.
        case failed
    }

    public init(limits: HTTPRequestParser.Limits = HTTPRequestParser.Limits()) {
        self.limits = limits
    }

    /// Bytes held: received and not yet handed out as a request, a chunked body decoded so far
    /// included.
    public var bufferedCount: Int {
        if case .chunked(_, let body, _) = state { return buffer.count - start + body.decoded.count }
        return buffer.count - start
    }

    /// Whether part of a request has arrived.
    public var isMidRequest: Bool {
        if case .head = state { return bufferedCount > 0 }
        return true
    }

    /// Whether the head of the request being read is complete (its body is still arriving).
    public var hasHead: Bool {
        switch state {
        case .body, .chunked: true
        case .head, .failed: false
        }
    }

    /// The bytes received past the last request, handed over (a protocol switch takes them).
    public mutating func takeBuffered() -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer = []
        start = 0
        headScan = 0
        return rest
    }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next request, if its bytes are all in.
    public mutating func next() -> HTTPRequestParser.Outcome {
        switch state {
        case .failed:
            return .failure(status: 400, reason: "the connection already failed")
        case .head:
            return readHead()
        case .body(var request, let length, let headBytes):
            guard bufferedCount >= length else { return .needMore }
            request.body = Array(buffer[start..<(start + length)])
            return finish(request, consumed: headBytes + length)
        case .chunked(let request, var body, let headBytes):
            // The state lets go of the body while it grows, so appending to it copies nothing.
            state = .failed
            let outcome = body.read(buffer, from: &start, limits: limits)
            switch outcome {
            case .needMore:
                state = .chunked(request, body, headBytes: headBytes)
                compact()
                return .needMore
            case .failure(let status, let reason):
                state = .failed
                return .failure(status: status, reason: reason)
            case .done:
                var complete = request
                complete.body = body.decoded
                return finish(complete, consumed: headBytes + body.encodedBytes)
            }
        }
    }

    private mutating func readHead() -> HTTPRequestParser.Outcome {
        let limit = limits.maxHeaderBytes + 4
        let from = max(start, headScan - 3)
        guard let end = HTTPRequestParser.find([13, 10, 13, 10], in: buffer, from: from, limit: start + limit - from) else {
            headScan = buffer.count
            if bufferedCount > limits.maxHeaderBytes { return fail(431, "the request head is over \(limits.maxHeaderBytes) bytes") }
            // A request line longer than the target limit can be refused before its end arrives.
            if bufferedCount > limits.maxTargetLength + 64,
               HTTPRequestParser.find([13, 10], in: buffer, from: start, limit: limits.maxTargetLength + 64) == nil
            {
                return fail(414, "the request target is too long")
            }
            return .needMore
        }
        let headBytes = end + 4 - start
        switch HTTPRequestParser.head(buffer[start..<end], limits: limits) {
        case .failure(let status, let reason):
            return fail(status, reason)
        case .success(let (request, framing)):
            start = end + 4
            headScan = start
            switch framing {
            case .length(let length):
                state = .body(request, length: length, headBytes: headBytes)
            case .chunked:
                state = .chunked(request, ChunkedBody(), headBytes: headBytes)
            }
            return next()
        }
    }

    private mutating func finish(_ request: HTTPRequest, consumed: Int) -> HTTPRequestParser.Outcome {
        if case .body(_, let length, _) = state { start += length }
        state = .head
        headScan = start
        compact()
        return .request(request, consumed: consumed)
    }

    private mutating func fail(_ status: Int, _ reason: String) -> HTTPRequestParser.Outcome {
        state = .failed
        return .failure(status: status, reason: reason)
    }

    /// Drops consumed bytes once they are most of the buffer, so each byte is moved at most a
    /// few times.
    private mutating func compact() {
        guard start > 0, start >= buffer.count / 2 || start > 64 * 1024 else { return }
        buffer.removeFirst(start)
        headScan -= start
        start = 0
    }
}

/// A chunked body (RFC 9112 §7.1) decoded as it arrives; chunk extensions and trailer fields
/// are read and dropped.
struct ChunkedBody: Sendable {
    private enum Phase: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
    }

    enum Outcome {
        case needMore
        case failure(Int, String)
        case done
    }

    private var phase = Phase.size
    private(set) var decoded: [UInt8] = []
    /// Bytes of the encoding consumed so far.
    private(set) var encodedBytes = 0
    private var trailerBytes = 0

    /// The longest chunk-size line accepted, extensions included.
    static let maxChunkLine = 256

    mutating func read(_ buffer: [UInt8], from index: inout Int, limits: HTTPRequestParser.Limits) -> Outcome {
        while true {
            // The encoding around the body (chunk lines, extensions, trailers) is capped too, so
            // a client cannot make the connection hold ever more bytes.
            guard encodedBytes <= 2 * limits.maxBodyBytes + 64 * 1024 else { return .failure(413, "the chunked body is over its size limit") }
            switch phase {
            case .size:
                guard let lineEnd = HTTPRequestParser.find([13, 10], in: buffer, from: index, limit: Self.maxChunkLine) else {
                    return buffer.count - index > Self.maxChunkLine ? .failure(400, "malformed chunk size") : .needMore
                }
                let sizeText = String(decoding: buffer[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(sizeText.trimmingCharacters(in: [" "]), radix: 16), size >= 0 else {
                    return .failure(400, "malformed chunk size")
                }
                consume(lineEnd + 2 - index, &index)
                if size == 0 {
                    phase = .trailer
                } else {
                    guard decoded.count + size <= limits.maxBodyBytes else { return .failure(413, "the body is over \(limits.maxBodyBytes) bytes") }
                    phase = .data(remaining: size)
                }
            case .data(let remaining):
                let available = min(remaining, buffer.count - index)
                guard available > 0 else { return .needMore }
                decoded += buffer[index..<(index + available)]
                consume(available, &index)
                phase = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard buffer.count - index >= 2 else { return .needMore }
                guard buffer[index] == 13, buffer[index + 1] == 10 else { return .failure(400, "malformed chunk") }
                consume(2, &index)
                phase = .size
            case .trailer:
                // Trailer fields, a line at a time, end with an empty line.
                let room = limits.maxHeaderBytes - trailerBytes
                guard let lineEnd = HTTPRequestParser.find([13, 10], in: buffer, from: index, limit: room) else {
                    return buffer.count - index > room ? .failure(431, "the trailer is over \(limits.maxHeaderBytes) bytes") : .needMore
                }
                let length = lineEnd + 2 - index
                consume(length, &index)
                trailerBytes += length
                if length == 2 { return .done }
            }
        }
    }

    private mutating func consume(_ count: Int, _ index: inout Int) {
        index += count
        encodedBytes += count
    }
}
