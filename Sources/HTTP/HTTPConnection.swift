import Foundation

/// One TCP connection: blocking reads with deadlines, writes, and the bytes already read but
/// not used. The WebSocket client runs on one; after an upgrade, the server hands the upgraded
/// socket to its new protocol as one.
// @unchecked Sendable: owns a TCP socket, used by one thread at a time (WebSocketClient's reader and writer only recv and send)
public final class HTTPConnection: @unchecked Sendable {
    public let descriptor: Int32
    public let remoteAddress: String
    /// Bytes read from the socket and not consumed yet.
    public var buffered: [UInt8] = []
    private var closed = false

    public init(descriptor: Int32, remoteAddress: String) {
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A connection the HTTP server's loop owns, shown to a handler for its address: closing or
    /// dropping it does nothing (the loop closes the socket), and a handler does no I/O on it.
    init(viewOf descriptor: Int32, remoteAddress: String) {
        self.descriptor = descriptor
        self.remoteAddress = remoteAddress
        closed = true
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
    }

    /// Hands the descriptor to a new owner (a WebSocket hub after an upgrade, which runs it on
    /// its own event loop): from now on `close()` and deinit leave it open, so the server's
    /// thread can return and free its connection slot without closing the socket.
    public func detach() -> Int32 {
        closed = true
        return descriptor
    }

    public enum ReadResult {
        case data([UInt8])
        case closed
        case timedOut
        case failed
    }

    /// Waits until `deadline` (monotonic seconds) for bytes.
    public func read(until deadline: Double) -> ReadResult {
        let remaining = deadline - HTTPConnection.now()
        guard remaining > 0 else { return .timedOut }
        var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptorSet, 1, Int32(min(remaining, 3600) * 1000) + 1)
        if ready == 0 { return .timedOut }
        if ready < 0 { return errno == EINTR ? read(until: deadline) : .failed }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return .closed }
        if count < 0 { return errno == EINTR ? read(until: deadline) : .failed }
        return .data(Array(chunk.prefix(count)))
    }

    /// Writes all of `bytes`, giving up at `deadline`. Returns false if the peer is gone.
    @discardableResult
    public func write(_ bytes: [UInt8], deadline: Double = HTTPConnection.now() + 30) -> Bool {
        var sent = 0
        while sent < bytes.count {
            var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let remaining = deadline - HTTPConnection.now()
            guard remaining > 0, poll(&descriptorSet, 1, Int32(remaining * 1000) + 1) > 0 else { return false }
            let result = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress.map { $0 + sent }, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            sent += result
        }
        return true
    }

    /// Monotonic seconds.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
