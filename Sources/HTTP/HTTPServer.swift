import CEpoll
import Foundation
import Log
import Synchronization

/// An HTTP/1.1 server on one epoll loop (RFC 9112), as nginx is built: the loop accepts, reads
/// each request incrementally (`HTTPRequestReader`), enforces the deadlines and writes answers
/// (files with sendfile(2)); only a request that has fully arrived goes to a handler, on a fixed
/// pool of worker threads. A slow or idle client costs a descriptor and the bytes it sent, never
/// a thread, so slowloris clients and idle keep-alive connections cannot lock anyone out.
///
/// Every limit says what happens when it is crossed (docs/HTTP.md): per-source and total
/// connections, the bytes held for unfinished requests across the process, the worker queue, and
/// the head, body, idle and write deadlines.
// @unchecked Sendable: clients confined to the `http` loop thread; workers only append to `completions` (a Mutex)
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var limits = HTTPRequestParser.Limits()
        /// The whole request head must arrive within this of its first byte (slowloris).
        public var headerTimeout: Double = 10
        /// The body must arrive within this after the head, however it is trickled.
        public var bodyTimeout: Double = 30
        /// How long an idle keep-alive connection is kept.
        public var idleTimeout: Double = 15
        /// A client must take an answer within this (one that does not read is closed).
        public var writeTimeout: Double = 30
        /// Open connections at once; more are answered 503 and closed.
        public var maxConnections = 10_000
        /// Open connections from one IP address at once (0: no limit); more get 503. Behind a
        /// reverse proxy every client has the proxy's address: raise it or turn it off there.
        public var maxConnectionsPerSource = 256
        public var maxRequestsPerConnection = 1000
        /// Threads that run handlers.
        public var workers = 32
        /// Requests read and waiting for a worker; more are answered 503.
        public var maxQueuedRequests = 1024
        /// Bytes held for requests still arriving, across every connection; the connection whose
        /// bytes would pass it is answered 503 and closed.
        public var maxBufferedBytes = 256 << 20

        public init() {}
    }

    public let configuration: Configuration
    private let handler: HTTPHandler
    private let logger = Logger(label: "http")
    public private(set) var port: Int = 0
    private var listener: Int32 = -1
    private var epoll: Epoll?
    private var pool: HTTPWorkerPool?
    private let running = Atomic<Bool>(false)
    private let openCount = Atomic<Int>(0)
    private let completions = Mutex<[Completion]>([])
    private let ended = NSCondition()
    private var loopEnded = false

    // Loop-thread state.
    private var clients: [Int32: HTTPServerConnection] = [:]
    private var bySource: [String: Int] = [:]
    private var buffered = 0
    private var nextClientID: UInt64 = 1
    private var lastSweep = 0.0
    private var acceptPausedUntil = 0.0
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// A handler's result on its way back to the loop.
    private struct Completion: Sendable {
        var descriptor: Int32
        var clientID: UInt64
        var result: HTTPResult
        var keepAlive: Bool
        var head: Bool
    }

    public init(configuration: Configuration = Configuration(), handler: @escaping HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Binds `host:port` (port 0 picks a free one) and starts serving. Returns the port.
    @discardableResult
    public func start(host: String, port: Int) throws -> Int {
        HTTPServer.raiseDescriptorLimit()
        // Close-on-exec: a job's process (posix_spawn) must not inherit the listener.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
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
        guard bound == 0, listen(descriptor, 1024) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HTTPServerError("cannot listen on \(host):\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        let epoll: Epoll
        do {
            epoll = try Epoll()
        } catch {
            close(descriptor)
            throw HTTPServerError(error.description)
        }
        guard epoll.add(descriptor, events: Epoll.readEvents) else {
            close(descriptor)
            throw HTTPServerError("epoll_ctl(listener): \(String(cString: strerror(errno)))")
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        listener = descriptor
        self.epoll = epoll
        pool = HTTPWorkerPool(threads: configuration.workers, capacity: configuration.maxQueuedRequests, stackSize: 512 * 1024, name: "http worker")
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in run(epoll) }
        thread.name = "http"
        thread.start()
        logger.info("listening", ["address": .string("\(host):\(self.port)")])
        return self.port
    }

    /// Stops serving: the listener and every connection are closed, and the handlers running
    /// finish before this returns.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        epoll?.wake()
        ended.lock()
        while !loopEnded { ended.wait() }
        ended.unlock()
        pool?.stop()
    }

    /// Connections open now.
    public var openConnections: Int { openCount.load(ordering: .relaxed) }

    /// Up to 65,536 descriptors (or the hard limit): each connection is one.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < min(limit.rlim_max, 65_536) else { return }
        limit.rlim_cur = min(limit.rlim_max, 65_536)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    // MARK: - The loop

    private func run(_ epoll: Epoll) {
        var descriptors = [Int32](repeating: 0, count: 256)
        var events = [UInt32](repeating: 0, count: 256)
        while running.load(ordering: .acquiring) {
            let ready = epoll.wait(descriptors: &descriptors, events: &events, timeout: 0.25)
            let now = HTTPConnection.now()
            for index in 0..<ready {
                let descriptor = descriptors[index]
                if descriptor == epoll.wakeDescriptor {
                    epoll.drainWake()
                } else if descriptor == listener {
                    acceptAll(epoll, now: now)
                } else if let client = clients[descriptor] {
                    if events[index] & Epoll.writeEvents != 0 { flush(client, epoll, now: now) }
                    if clients[descriptor] === client, events[index] & (Epoll.readEvents | Epoll.errorEvents) != 0 { read(client, epoll, now: now) }
                }
            }
            for completion in completions.withLock({ list in defer { list.removeAll() }; return list }) {
                complete(completion, epoll, now: HTTPConnection.now())
            }
            if now >= lastSweep + 0.25 { sweep(epoll, now: now) }
        }
        epoll.remove(listener)
        close(listener)
        for client in Array(clients.values) { finish(client, epoll) }
        ended.lock()
        loopEnded = true
        ended.broadcast()
        ended.unlock()
    }

    private func acceptAll(_ epoll: Epoll, now: Double) {
        guard now >= acceptPausedUntil else { return }
        for _ in 0..<128 {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let descriptor = withUnsafeMutablePointer(to: &address) {
                revue_accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
            }
            guard descriptor >= 0 else {
                if errno == EMFILE || errno == ENFILE {
                    // Out of descriptors: stop accepting for a moment (the listener stays
                    // readable, so the loop would spin) and let connections finish.
                    acceptPausedUntil = now + 0.1
                    epoll.modify(listener, events: 0)
                    logger.warning("out of file descriptors; accepting again in 100 ms", ["open": .of(clients.count)])
                }
                return
            }
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            var text = [CChar](repeating: 0, count: 32)
            inet_ntop(AF_INET, &address.sin_addr, &text, 32)
            let remote = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fromSource = bySource[remote, default: 0]
            let perSource = configuration.maxConnectionsPerSource
            if clients.count >= configuration.maxConnections || (perSource > 0 && fromSource >= perSource) || !epoll.add(descriptor, events: Epoll.readEvents) {
                let reason = clients.count >= configuration.maxConnections ? "too many connections" : "too many connections from \(remote)"
                let bytes = HTTPServer.serialize(.text(503, reason), keepAlive: false, head: false)
                _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(descriptor)
                continue
            }
            let client = HTTPServerConnection(id: nextClientID, descriptor: descriptor, remote: remote, limits: configuration.limits,
                                    deadline: now + configuration.headerTimeout)
            nextClientID += 1
            clients[descriptor] = client
            bySource[remote] = fromSource + 1
            openCount.store(clients.count, ordering: .relaxed)
        }
    }

    private func read(_ client: HTTPServerConnection, _ epoll: Epoll, now: Double) {
        if case .draining = client.phase {
            // What a closed request still sends is read and dropped until the client closes.
            let count = recv(client.descriptor, readBuffer.baseAddress, readBuffer.count, Int32(MSG_DONTWAIT))
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { finish(client, epoll) }
            return
        }
        guard case .reading = client.phase else {
            // A client that hangs up while its request is handled: stop watching it; the answer
            // will find it gone.
            if case .handling = client.phase { epoll.remove(client.descriptor) }
            return
        }
        let count = recv(client.descriptor, readBuffer.baseAddress, readBuffer.count, Int32(MSG_DONTWAIT))
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
        guard count > 0 else {
            finish(client, epoll)
            return
        }
        if !client.reader.isMidRequest {
            // The head must come within headerTimeout of its first byte.
            client.deadline = min(client.deadline, now + configuration.headerTimeout)
        }
        client.reader.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]))
        account(client)
        if buffered > configuration.maxBufferedBytes {
            logger.warning("refused a request: the server holds too many unfinished requests' bytes",
                           ["remote": .string(client.remote), "buffered": .of(buffered)])
            answer(client, .text(503, "the server is busy; try again"), keepAlive: false, head: false, epoll, now: now)
            return
        }
        process(client, epoll, now: now)
    }

    /// Reads what requests the client's bytes hold, and hands the first complete one to a worker.
    private func process(_ client: HTTPServerConnection, _ epoll: Epoll, now: Double) {
        guard case .reading = client.phase else { return }
        let outcome = client.reader.next()
        account(client)
        switch outcome {
        case .needMore:
            // Once the head is in, the body gets its own allowance, once.
            if client.reader.hasHead && !client.bodyDeadlineSet {
                client.bodyDeadlineSet = true
                client.deadline = now + configuration.bodyTimeout
            }
        case .failure(let status, let reason):
            logger.debug("refused a malformed request", ["status": .of(status), "reason": .string(reason), "remote": .string(client.remote)])
            answer(client, .text(status, reason), keepAlive: false, head: false, epoll, now: now)
        case .request(let received, _):
            client.served += 1
            let keepAlive = received.keepAlive && client.served < configuration.maxRequestsPerConnection
            let head = received.method == "HEAD"
            var request = received
            if head { request.method = "GET" }
            let handled = request
            client.phase = .handling
            // The request's body stays counted until its answer is written.
            client.inFlight = request.body.count
            buffered += client.inFlight
            epoll.modify(client.descriptor, events: 0)
            let completion = Completion(descriptor: client.descriptor, clientID: client.id, result: .response(.text(500, "")), keepAlive: keepAlive,
                                        head: head)
            let view = HTTPConnection(viewOf: client.descriptor, remoteAddress: client.remote)
            let submitted = pool?.submit { [self, handler] in
                var done = completion
                done.result = handler(handled, view)
                completions.withLock { $0.append(done) }
                epoll.wake()
            } ?? false
            if !submitted {
                release(client)
                client.phase = .reading
                answer(client, .text(503, "the server is busy; try again"), keepAlive: false, head: head, epoll, now: now)
            }
        }
    }

    private func complete(_ completion: Completion, _ epoll: Epoll, now: Double) {
        guard let client = clients[completion.descriptor], client.id == completion.clientID, case .handling = client.phase else { return }
        release(client)
        switch completion.result {
        case .response(let response):
            answer(client, response, keepAlive: completion.keepAlive, head: completion.head, epoll, now: now)
        case .deferred(let park):
            // The connection waits, read by no one and holding no thread, until the responder
            // is called (from any thread) or dropped.
            let pending = completion
            park(HTTPResponder { [self] response in
                var done = pending
                done.result = .response(response)
                completions.withLock { $0.append(done) }
                epoll.wake()
            })
        case .upgrade(let response, let takeOver):
            client.after = .upgrade(takeOver)
            client.phase = .writing
            client.deadline = now + configuration.writeTimeout
            client.output = HTTPServer.serialize(response, keepAlive: !response.isStreamed, head: true)
            flush(client, epoll, now: now)
        }
    }

    /// Queues an answer and writes what the socket takes.
    private func answer(_ client: HTTPServerConnection, _ response: HTTPResponse, keepAlive: Bool, head: Bool, _ epoll: Epoll, now: Double) {
        // Nothing is read while an answer goes out (the next request waits in the socket).
        if case .reading = client.phase { epoll.modify(client.descriptor, events: 0) }
        client.phase = .writing
        client.deadline = now + configuration.writeTimeout
        client.after = keepAlive ? .keepAlive : .close
        if !keepAlive {
            // Nothing more is read from it: what it sent past this request stops counting.
            _ = client.reader.takeBuffered()
            account(client)
        }
        client.output = HTTPServer.serialize(response, keepAlive: keepAlive, head: head || response.isFile)
        client.written = 0
        if !head, case .file(let path, let offset, let count) = response.body {
            let file = open(path, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else {
                finish(client, epoll)
                return
            }
            client.file = HTTPServerConnection.FileBody(descriptor: file, offset: offset, remaining: count)
        }
        flush(client, epoll, now: now)
    }

    private func flush(_ client: HTTPServerConnection, _ epoll: Epoll, now: Double) {
        guard case .writing = client.phase else { return }
        let sentBefore = client.sent
        defer {
            // The deadline is for a client that stops taking bytes, not for a long answer.
            if client.sent > sentBefore, case .writing = client.phase { client.deadline = now + configuration.writeTimeout }
        }
        switch client.write() {
        case .failed:
            finish(client, epoll)
        case .blocked:
            if !client.watchingWrites {
                client.watchingWrites = true
                epoll.modify(client.descriptor, events: Epoll.writeEvents)
            }
        case .done:
            client.watchingWrites = false
            switch client.after {
            case .close:
                // Closing with the client's bytes unread would send a reset, which can destroy the
                // answer in flight: shut the writing side, drop what still comes, close soon.
                shutdown(client.descriptor, Int32(SHUT_WR))
                client.phase = .draining
                client.deadline = now + 2
                epoll.modify(client.descriptor, events: Epoll.readEvents)
            case .upgrade(let takeOver):
                handOver(client, takeOver, epoll)
            case .keepAlive:
                client.phase = .reading
                client.bodyDeadlineSet = false
                client.deadline = now + configuration.idleTimeout
                epoll.modify(client.descriptor, events: Epoll.readEvents)
                // Requests pipelined behind this one may be waiting in the buffer.
                process(client, epoll, now: now)
            }
        }
    }

    /// After a 101: the socket and the bytes past the request go to the new protocol, on a worker
    /// (a WebSocket hub adopts it at once), and this server forgets them.
    private func handOver(_ client: HTTPServerConnection, _ takeOver: @escaping @Sendable (HTTPConnection) -> Void, _ epoll: Epoll) {
        epoll.remove(client.descriptor)
        forget(client)
        let connection = HTTPConnection(descriptor: client.descriptor, remoteAddress: client.remote)
        connection.buffered = client.reader.takeBuffered()
        if pool?.submit({ takeOver(connection) }) != true { connection.close() }
    }

    /// Deadlines, swept four times a second.
    private func sweep(_ epoll: Epoll, now: Double) {
        lastSweep = now
        if acceptPausedUntil > 0 && now >= acceptPausedUntil {
            acceptPausedUntil = 0
            epoll.modify(listener, events: Epoll.readEvents)
        }
        for client in Array(clients.values) where now >= client.deadline {
            switch client.phase {
            case .reading:
                // A request half sent is told why; an idle connection is just closed.
                if client.reader.isMidRequest {
                    answer(client, .text(408, "the request took too long"), keepAlive: false, head: false, epoll, now: now)
                    // The 408 gets a short while to go out.
                    client.deadline = now + 1
                } else {
                    finish(client, epoll)
                }
            case .writing, .draining:
                finish(client, epoll)
            case .handling:
                break
            }
        }
    }

    /// Keeps `buffered` the sum of what every client's reader holds.
    private func account(_ client: HTTPServerConnection) {
        let now = client.reader.bufferedCount
        buffered += now - client.accounted
        client.accounted = now
    }

    private func finish(_ client: HTTPServerConnection, _ epoll: Epoll) {
        // A client already forgotten (handed over, or finished) owns its descriptor no more.
        guard clients[client.descriptor] === client else { return }
        epoll.remove(client.descriptor)
        forget(client)
        shutdown(client.descriptor, Int32(SHUT_RDWR))
        close(client.descriptor)
    }

    /// A request's body no longer counts once its handler has answered.
    private func release(_ client: HTTPServerConnection) {
        buffered -= client.inFlight
        client.inFlight = 0
    }

    private func forget(_ client: HTTPServerConnection) {
        guard clients[client.descriptor] === client else { return }
        clients[client.descriptor] = nil
        buffered -= client.accounted
        client.accounted = 0
        release(client)
        client.closeFile()
        if let count = bySource[client.remote], count > 1 { bySource[client.remote] = count - 1 } else { bySource[client.remote] = nil }
        openCount.store(clients.count, ordering: .relaxed)
    }

    /// The status line, headers (with Content-Length and Connection) and, unless `head`, the body.
    static func serialize(_ response: HTTPResponse, keepAlive: Bool, head: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        var hasLength = false, hasSniffing = false, hasReferrer = false
        for (name, value) in response.headers {
            switch name.lowercased() {
            case "content-length": hasLength = true
            case "x-content-type-options": hasSniffing = true
            case "referrer-policy": hasReferrer = true
            default: break
            }
            text += "\(name): \(value)\r\n"
        }
        // Browsers take every answer as the type it says it is, and send no page's address (which
        // may hold a token) to anyone it links to.
        if !hasSniffing { text += "X-Content-Type-Options: nosniff\r\n" }
        if !hasReferrer { text += "Referrer-Policy: no-referrer\r\n" }
        if response.status != 101 && response.status != 204 && !hasLength && !response.isStreamed { text += "Content-Length: \(response.bodyLength)\r\n" }
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
