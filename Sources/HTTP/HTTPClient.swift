import Foundation

/// A small HTTP/1.1 client over POSIX sockets for webhooks: one request per connection, a
/// deadline for the whole exchange, http:// and https:// (TLS through OpenSSL, certificates
/// verified; docs/WEBHOOKS.md).
public enum HTTPClient {
    public struct Response: Sendable {
        public let status: Int
        public let body: [UInt8]
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public static func post(_ url: String, body: [UInt8], headers: [(String, String)], timeout: Double = 10,
                            caFile: String? = nil) throws(Failure) -> Response
    {
        try request("POST", url, body: body, headers: headers, timeout: timeout, caFile: caFile)
    }

    /// One request with `Connection: close`. For https, `caFile` (PEM) replaces the system's
    /// certificate authorities.
    public static func request(_ method: String, _ url: String, body: [UInt8] = [], headers: [(String, String)] = [],
                               timeout: Double = 10, caFile: String? = nil) throws(Failure) -> Response
    {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = parsed.host, !host.isEmpty
        else {
            throw Failure("only http:// and https:// URLs can be called: \(url)")
        }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        let deadline = HTTPConnection.now() + timeout
        let descriptor = try connect(host: host, port: port, deadline: deadline)
        let plain = HTTPConnection(descriptor: descriptor, remoteAddress: host)
        defer { plain.close() }
        let connection = scheme == "https"
            ? Transport.tls(try TLSClientSession(descriptor: descriptor, host: host, caFile: caFile, deadline: deadline))
            : Transport.plain(plain)
        // The path as it was written (still percent-encoded): decoding it could put a CR or LF
        // into the request line.
        let components = URLComponents(url: parsed, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? "/"
        if path.isEmpty { path = "/" }
        if let query = components?.percentEncodedQuery { path += "?" + query }
        guard !path.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            throw Failure("the URL's path has spaces or control characters: \(url)")
        }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\(parsed.port.map { ":\($0)" } ?? "")\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\nUser-Agent: revue\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        guard connection.write(Array(head.utf8) + body, deadline: deadline) else { throw Failure("\(url): the connection broke while sending") }
        var response: [UInt8] = []
        reading: while response.count < 1_048_576 {
            switch connection.read(until: deadline) {
            case .data(let bytes): response += bytes
            case .closed: break reading
            case .timedOut: throw Failure("\(url): no answer within \(Int(timeout)) s")
            case .failed: throw Failure("\(url): the connection failed")
            }
            if let status = statusIfComplete(response) { return status }
        }
        guard let status = statusIfComplete(response, closed: true) else { throw Failure("\(url): no HTTP response") }
        return status
    }

    /// Where a request's bytes go: the socket, or TLS over it.
    enum Transport {
        case plain(HTTPConnection)
        case tls(TLSClientSession)

        func write(_ bytes: [UInt8], deadline: Double) -> Bool {
            switch self {
            case .plain(let connection): connection.write(bytes, deadline: deadline)
            case .tls(let session): session.write(bytes, deadline: deadline)
            }
        }

        func read(until deadline: Double) -> HTTPConnection.ReadResult {
            switch self {
            case .plain(let connection): connection.read(until: deadline)
            case .tls(let session): session.read(until: deadline)
            }
        }
    }

    /// The response once its head (and its Content-Length body, if any) has arrived.
    static func statusIfComplete(_ bytes: [UInt8], closed: Bool = false) -> Response? {
        guard let headEnd = HTTPRequestParser.find([13, 10, 13, 10], in: bytes, limit: bytes.count) else { return nil }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let first = lines.first, first.hasPrefix("HTTP/1."), let status = Int(first.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        let body = Array(bytes[(headEnd + 4)...])
        // The peer is not trusted: a missing, negative or unparsable length means "read to close".
        let length = lines.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 ? $0 : nil }
        if let length, body.count >= length { return Response(status: status, body: Array(body.prefix(length))) }
        return closed ? Response(status: status, body: body) : nil
    }

    static func connect(host: String, port: Int, deadline: Double) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let info = result else {
            throw Failure("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(result) }
        let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard descriptor >= 0 else { throw Failure("socket() failed") }
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let started = Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen)
        if started != 0 && errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure("cannot connect to \(host):\(port): \(reason)")
        }
        if started != 0 {
            var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let remaining = max(0, deadline - HTTPConnection.now())
            guard poll(&descriptorSet, 1, Int32(remaining * 1000)) > 0 else {
                close(descriptor)
                throw Failure("cannot connect to \(host):\(port): timed out")
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                close(descriptor)
                throw Failure("cannot connect to \(host):\(port): \(String(cString: strerror(error)))")
            }
        }
        _ = fcntl(descriptor, F_SETFL, flags)
        return descriptor
    }
}
