/// The limits and outcomes of reading HTTP/1.1 requests (RFC 9112), and the head's grammar;
/// `HTTPRequestReader` reads a connection's requests with them as bytes arrive. It says whether
/// it needs more, has a request, or found an error with the 4xx to answer, and never trusts a
/// length it has not checked against its limits.
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

    /// Parses the first request in `buffer` (for a connection, `HTTPRequestReader` reads as
    /// bytes arrive without reading any twice).
    public func parse(_ buffer: [UInt8]) -> Outcome {
        var reader = HTTPRequestReader(limits: limits)
        reader.append(buffer)
        return reader.next()
    }

    /// How the body of a request is framed (RFC 9112 §6.3).
    enum Framing: Sendable, Equatable {
        case length(Int)
        case chunked
    }

    enum Head {
        case success((HTTPRequest, Framing))
        case failure(status: Int, reason: String)
    }

    /// Reads a request head: the bytes before its CRLF CRLF.
    static func head(_ bytes: ArraySlice<UInt8>, limits: Limits) -> Head {
        guard bytes.count <= limits.maxHeaderBytes else {
            return .failure(status: 431, reason: "the request head is over \(limits.maxHeaderBytes) bytes")
        }
        guard let head = String(validating: bytes, as: UTF8.self) else {
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
        let request = HTTPRequest(method: method, target: target, version: version, headers: headers)
        // A percent-encoded NUL or control character in the path would reach file names and logs.
        guard !request.path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .failure(status: 400, reason: "the path holds a control character")
        }
        let encodings = headers.filter { $0.name == "transfer-encoding" }.map { $0.value.lowercased() }
        let lengths = headers.filter { $0.name == "content-length" }.map(\.value)
        if !encodings.isEmpty {
            guard lengths.isEmpty else { return .failure(status: 400, reason: "both Transfer-Encoding and Content-Length") }
            // HTTP/1.0 has no transfer codings: such a message is badly framed (RFC 9112 §6.1).
            guard version == "HTTP/1.1" else { return .failure(status: 400, reason: "Transfer-Encoding in an HTTP/1.0 request") }
            guard encodings == ["chunked"] else { return .failure(status: 501, reason: "only chunked transfer coding is supported") }
            return .success((request, .chunked))
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
        return .success((request, .length(length)))
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
