import Foundation
import Log
import Synchronization

/// What a handler returns: a response, or a protocol switch (WebSocket) that takes the
/// connection over after the 101 response is sent.
public enum HTTPResult: Sendable {
    case response(HTTPResponse)
    case upgrade(HTTPResponse, @Sendable (HTTPConnection) -> Void)
}

/// Serves one request. Called on the connection's thread; it may block.
public typealias HTTPHandler = @Sendable (HTTPRequest, HTTPConnection) -> HTTPResult

/// An HTTP/1.1 server on POSIX sockets: one thread per connection (up to `maxConnections`),
/// keep-alive, limits on the head and body, and deadlines, so a slow or hostile client costs
/// one thread for a bounded time and gets a clear 4xx (or a closed connection), while others are
/// served. docs/HTTP.md lists the limits.
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var limits = HTTPRequestParser.Limits()
        /// The whole request head must arrive within this (slowloris).
        public var headerTimeout: Double = 10
        /// The body must arrive within this after the head.
        public var bodyTimeout: Double = 30
        /// How long an idle keep-alive connection is kept.
        public var idleTimeout: Double = 15
        public var maxConnections = 256
        public var maxRequestsPerConnection = 1000

        public init() {}
    }

    public let configuration: Configuration
    private let handler: HTTPHandler
    private var listener: Int32 = -1
    private let running = Atomic<Bool>(false)
    private let connections = Atomic<Int>(0)
    private let logger = Logger(label: "http")
    public private(set) var port: Int = 0
    private var acceptThread: Thread?
    private let stopped = NSCondition()
    private var acceptLoopEnded = false

    public init(configuration: Configuration = Configuration(), handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Binds `host:port` (port 0 picks a free one) and starts accepting. Returns the port.
    @discardableResult
    public func start(host: String, port: Int) throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPServerError("socket() failed: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            close(descriptor)
            throw HTTPServerError("\(host) is not an IPv4 address to listen on")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HTTPServerError("cannot listen on \(host):\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        running.store(true, ordering: .relaxed)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "http accept"
        thread.start()
        acceptThread = thread
        logger.info("listening", ["address": .string("\(host):\(self.port)")])
        return self.port
    }

    /// Stops accepting. Open connections finish their current request.
    public func stop() {
        guard running.exchange(false, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        stopped.lock()
        while !acceptLoopEnded { _ = stopped.wait(until: Date().addingTimeInterval(1)) }
        stopped.unlock()
    }

    public var openConnections: Int { connections.load(ordering: .relaxed) }

    private func acceptLoop() {
        while running.load(ordering: .relaxed) {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE {
                    usleep(50_000) // out of descriptors: let connections finish
                    continue
                }
                break
            }
            var text = [CChar](repeating: 0, count: 32)
            inet_ntop(AF_INET, &address.sin_addr, &text, 32)
            let remote = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let connection = HTTPConnection(descriptor: client, remoteAddress: remote)
            if connections.add(1, ordering: .relaxed).newValue > configuration.maxConnections {
                connections.subtract(1, ordering: .relaxed)
                connection.write(HTTPServer.serialize(.text(503, "too many connections"), keepAlive: false, head: false))
                connection.close()
                continue
            }
            let thread = Thread { [self] in
                serve(connection)
                connections.subtract(1, ordering: .relaxed)
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        stopped.lock()
        acceptLoopEnded = true
        stopped.broadcast()
        stopped.unlock()
    }

    /// Reads and answers requests on one connection until it closes.
    func serve(_ connection: HTTPConnection) {
        defer { connection.close() }
        let parser = HTTPRequestParser(limits: configuration.limits)
        var served = 0
        while running.load(ordering: .relaxed) && served < configuration.maxRequestsPerConnection {
            // The head must be complete within headerTimeout of its first byte (or of the
            // connection, for the first request); an idle keep-alive connection waits idleTimeout.
            let started = HTTPConnection.now()
            var headDeadline = started + (served == 0 ? configuration.headerTimeout : configuration.idleTimeout)
            var sawBytes = !connection.buffered.isEmpty
            var bodyDeadlineSet = false
            var outcome = parser.parse(connection.buffered)
            while case .needMore = outcome {
                switch connection.read(until: headDeadline) {
                case .data(let bytes):
                    if !sawBytes {
                        sawBytes = true
                        headDeadline = min(headDeadline, HTTPConnection.now() + configuration.headerTimeout)
                    }
                    connection.buffered += bytes
                    outcome = parser.parse(connection.buffered)
                    // Once the head is in, the body gets its own allowance, once: a client that
                    // trickles the body cannot extend it.
                    if !bodyDeadlineSet, case .needMore = outcome,
                       HTTPRequestParser.find([13, 10, 13, 10], in: connection.buffered, limit: configuration.limits.maxHeaderBytes + 4) != nil
                    {
                        bodyDeadlineSet = true
                        headDeadline = HTTPConnection.now() + configuration.bodyTimeout
                    }
                case .timedOut:
                    if sawBytes { connection.write(HTTPServer.serialize(.text(408, "the request took too long"), keepAlive: false, head: false)) }
                    return
                case .closed, .failed:
                    return
                }
            }
            switch outcome {
            case .needMore:
                return
            case .failure(let status, let reason):
                logger.debug("refused a malformed request", ["status": .of(status), "reason": .string(reason),
                                                             "remote": .string(connection.remoteAddress)])
                connection.write(HTTPServer.serialize(.text(status, reason), keepAlive: false, head: false))
                return
            case .request(var request, let consumed):
                connection.buffered.removeFirst(consumed)
                served += 1
                let keepAlive = request.keepAlive && served < configuration.maxRequestsPerConnection
                let head = request.method == "HEAD"
                if head { request.method = "GET" }
                switch handler(request, connection) {
                case .response(let response):
                    guard send(response, on: connection, keepAlive: keepAlive, head: head) else { return }
                    if !keepAlive { return }
                case .upgrade(let response, let takeOver):
                    guard connection.write(HTTPServer.serialize(response, keepAlive: true, head: true)) else { return }
                    takeOver(connection)
                    return
                }
            }
        }
    }

    private func send(_ response: HTTPResponse, on connection: HTTPConnection, keepAlive: Bool, head: Bool) -> Bool {
        switch response.body {
        case .bytes:
            return connection.write(HTTPServer.serialize(response, keepAlive: keepAlive, head: head))
        case .file(let path, let offset, let count):
            guard connection.write(HTTPServer.serialize(response, keepAlive: keepAlive, head: true)) else { return false }
            if head { return true }
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            do {
                try handle.seek(toOffset: UInt64(offset))
                var remaining = count
                while remaining > 0 {
                    let chunk = try handle.read(upToCount: Int(min(remaining, 256 * 1024))) ?? Data()
                    if chunk.isEmpty { return false }
                    guard connection.write(Array(chunk)) else { return false }
                    remaining -= Int64(chunk.count)
                }
            } catch {
                return false
            }
            return true
        }
    }

    /// The status line, headers (with Content-Length and Connection) and, unless `head`, the body.
    static func serialize(_ response: HTTPResponse, keepAlive: Bool, head: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        var hasLength = false
        for (name, value) in response.headers {
            if name.lowercased() == "content-length" { hasLength = true }
            text += "\(name): \(value)\r\n"
        }
        if response.status != 101 && response.status != 204 && !hasLength { text += "Content-Length: \(response.bodyLength)\r\n" }
        if response.status != 101 { text += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n" }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if !head, case .bytes(let body) = response.body { bytes += body }
        return bytes
    }
}

/// The server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
