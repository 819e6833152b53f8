/// Reads HTTP/1.1 requests from bytes as they arrive (RFC 9112). A pure state machine: feed it
/// bytes, and it says whether it needs more, has a request, or found an error with the 4xx to
/// answer. It never trusts a length it has not checked against its limits.
public struct HTTPRequestParser: Sendable {
    public struct Limits: Sendable, Equatable {
        /// The request line and headers together.
        public var maxHeaderBytes: Int
        public var maxHeaderCount: Int
        public var maxTargetLength: Int
        public var maxBodyBytes: Int

        public init(maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxTargetLength: Int = 8 * 1024,
                    maxBodyBytes: Int = 1024 * 1024)
        {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderCount = maxHeaderCount
            self.maxTargetLength = maxTargetLength
            self.maxBodyBytes = maxBodyBytes
        }
    }

    public enum Outcome: Sendable, Equatable {
        case needMore
        /// A request and how many bytes of the input it took.
        case request(HTTPRequest, consumed: Int)
        /// The request cannot be served: answer with this status and close the connection.
        case failure(status: Int, reason: String)
    }

    public let limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Parses the first request in `buffer`.
    public func parse(_ buffer: [UInt8]) -> Outcome {
        guard let headEnd = HTTPRequestParser.find([13, 10, 13, 10], in: buffer, limit: limits.maxHeaderBytes + 4) else {
            if buffer.count > limits.maxHeaderBytes { return .failure(status: 431, reason: "the request head is over \(limits.maxHeaderBytes) bytes") }
            // A request line longer than the target limit can be refused before its end arrives.
            if HTTPRequestParser.find([13, 10], in: buffer, limit: buffer.count) == nil && buffer.count > limits.maxTargetLength + 64 {
                return .failure(status: 414, reason: "the request target is too long")
            }
            return .needMore
        }
        guard headEnd <= limits.maxHeaderBytes else {
            return .failure(status: 431, reason: "the request head is over \(limits.maxHeaderBytes) bytes")
        }
        guard let head = String(validating: buffer[0..<headEnd], as: UTF8.self) else {
            return .failure(status: 400, reason: "the request head is not UTF-8")
        }
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        // Tolerate empty lines before the request line (RFC 9112 §2.2).
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { return .failure(status: 400, reason: "no request line") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(status: 400, reason: "malformed request line") }
        let method = String(parts[0]), target = String(parts[1]), version = String(parts[2])
        guard !method.isEmpty, method.allSatisfy({ $0.isASCII && ($0.isUppercase || $0 == "-") }) else {
            return .failure(status: 400, reason: "malformed method")
        }
        guard target.count <= limits.maxTargetLength else { return .failure(status: 414, reason: "the request target is too long") }
        guard target.hasPrefix("/") || target == "*", !target.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } ?? false })
        else { return .failure(status: 400, reason: "malformed request target") }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return version.hasPrefix("HTTP/") ? .failure(status: 505, reason: "only HTTP/1.1 and 1.0") : .failure(status: 400, reason: "malformed version")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return .failure(status: 400, reason: "a header line has no colon") }
            let name = line[..<colon]
            // No whitespace between the name and the colon (RFC 9112 §5.1), and a token name.
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\"" && $0 != "(" && $0 != ")" }) else {
                return .failure(status: 400, reason: "malformed header name")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: [" ", "\t"])
            guard !value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                return .failure(status: 400, reason: "malformed header value")
            }
            headers.append((name.lowercased(), value))
        }
        guard headers.count <= limits.maxHeaderCount else { return .failure(status: 431, reason: "too many header fields") }
        if version == "HTTP/1.1" && !headers.contains(where: { $0.name == "host" }) {
            return .failure(status: 400, reason: "HTTP/1.1 needs a Host header")
        }
        let bodyStart = headEnd + 4
        var request = HTTPRequest(method: method, target: target, version: version, headers: headers)
        let encodings = headers.filter { $0.name == "transfer-encoding" }.map { $0.value.lowercased() }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if !encodings.isEmpty {
            guard lengths.isEmpty else { return .failure(status: 400, reason: "both Transfer-Encoding and Content-Length") }
            // HTTP/1.0 has no transfer codings: such a message is badly framed (RFC 9112 §6.1).
            guard version == "HTTP/1.1" else { return .failure(status: 400, reason: "Transfer-Encoding in an HTTP/1.0 request") }
            guard encodings == ["chunked"] else { return .failure(status: 501, reason: "only chunked transfer coding is supported") }
            switch dechunk(buffer, from: bodyStart) {
            case .needMore:
                // The decoded size is capped as it goes; this caps the encoding around it (chunk
                // lines, extensions, trailers), so a client cannot make the buffer grow for ever.
                guard buffer.count - bodyStart <= 2 * limits.maxBodyBytes + 64 * 1024 else {
                    return .failure(status: 413, reason: "the chunked body is over its size limit")
                }
                return .needMore
            case .failure(let status, let reason): return .failure(status: status, reason: reason)
            case .done(let body, let end):
                request.body = body
                return .request(request, consumed: end)
            }
        }
        var length = 0
        if let first = lengths.first {
            // Repeated lengths must agree; each must be digits only.
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18, first.allSatisfy(\.isASCII),
                  first.allSatisfy(\.isNumber), let value = Int(first)
            else { return .failure(status: 400, reason: "bad Content-Length") }
            length = value
        }
        guard length <= limits.maxBodyBytes else { return .failure(status: 413, reason: "the body is over \(limits.maxBodyBytes) bytes") }
        guard buffer.count - bodyStart >= length else { return .needMore }
        request.body = Array(buffer[bodyStart..<(bodyStart + length)])
        return .request(request, consumed: bodyStart + length)
    }

    /// The longest chunk-size line accepted, extensions included.
    static let maxChunkLine = 256

    enum Chunked {
        case needMore
        case failure(Int, String)
        case done([UInt8], Int)
    }

    /// Chunked transfer coding (RFC 9112 §7.1), trailers ignored.
    func dechunk(_ buffer: [UInt8], from start: Int) -> Chunked {
        var body: [UInt8] = []
        var index = start
        while true {
            // A chunk line is a hex size and perhaps short extensions (ignored).
            guard let lineEnd = HTTPRequestParser.find([13, 10], in: buffer, from: index, limit: HTTPRequestParser.maxChunkLine) else {
                return buffer.count - index > HTTPRequestParser.maxChunkLine ? .failure(400, "malformed chunk size") : .needMore
            }
            let sizeText = String(decoding: buffer[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard !sizeText.isEmpty, sizeText.count <= 8, let size = Int(sizeText.trimmingCharacters(in: [" "]), radix: 16), size >= 0 else {
                return .failure(400, "malformed chunk size")
            }
            index = lineEnd + 2
            if size == 0 {
                // Trailer fields end with an empty line.
                let trailerTooLong = buffer.count - index > limits.maxHeaderBytes
                guard let trailerEnd = HTTPRequestParser.find([13, 10], in: buffer, from: index, limit: limits.maxHeaderBytes) else {
                    return trailerTooLong ? .failure(431, "the trailer is over \(limits.maxHeaderBytes) bytes") : .needMore
                }
                if trailerEnd == index { return .done(body, index + 2) }
                guard let end = HTTPRequestParser.find([13, 10, 13, 10], in: buffer, from: index, limit: limits.maxHeaderBytes) else {
                    return trailerTooLong ? .failure(431, "the trailer is over \(limits.maxHeaderBytes) bytes") : .needMore
                }
                return .done(body, end + 4)
            }
            guard body.count + size <= limits.maxBodyBytes else { return .failure(413, "the body is over \(limits.maxBodyBytes) bytes") }
            guard buffer.count >= index + size + 2 else { return .needMore }
            guard buffer[index + size] == 13, buffer[index + size + 1] == 10 else { return .failure(400, "malformed chunk") }
            body += buffer[index..<(index + size)]
            index += size + 2
        }
    }

    /// The index of `pattern` in `buffer` at or after `from`, looking no further than `limit` bytes.
    static func find(_ pattern: [UInt8], in buffer: [UInt8], from: Int = 0, limit: Int) -> Int? {
        guard pattern.count > 0, buffer.count >= pattern.count else { return nil }
        let last = min(buffer.count - pattern.count, from + limit)
        guard from <= last else { return nil }
        var index = from
        while index <= last {
            if buffer[index] == pattern[0] {
                var matched = true
                for offset in 1..<pattern.count where buffer[index + offset] != pattern[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
