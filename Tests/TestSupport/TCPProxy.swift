import Foundation

/// A TCP proxy on loopback in front of a server port, for network faults a test cannot cause for
/// real: `cut(for:)` drops every open connection (as a NAT or load balancer that forgot them
/// would) and refuses new ones until the time is up; `freeze(for:)` stops carrying the open
/// ones' bytes for good without closing them (a network that drops every packet: neither end
/// hears of a close) and refuses new ones meanwhile.
public final class TCPProxy: @unchecked Sendable {
    public let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let lock = NSLock()
    private var pairs: [(client: Int32, server: Int32)] = []
    /// Connections `freeze` took out of service: open, never read or written again.
    private var frozen: [(client: Int32, server: Int32)] = []
    private var refuseUntil = Date.distantPast
    private var running = true
    private let finished = DispatchSemaphore(value: 0)
    public private(set) var connectionsCut = 0

    /// Listens on `host` (loopback unless given: the bridge of a `ClusterNetwork`), on a free port.
    public init(upstreamPort: Int, host: String = "127.0.0.1") throws {
        self.upstreamPort = upstreamPort
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ToolError("socket failed") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw ToolError("cannot listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            run()
            finished.signal()
        }.start()
    }

    deinit {
        lock.withLock { running = false }
        _ = finished.wait(timeout: .now() + 2)
        for pair in pairs + frozen {
            close(pair.client)
            close(pair.server)
        }
        close(listener)
    }

    /// Closes every connection now and refuses new ones for `seconds`.
    public func cut(for seconds: Double) {
        lock.withLock {
            refuseUntil = Date().addingTimeInterval(seconds)
            for pair in pairs {
                shutdown(pair.client, Int32(SHUT_RDWR))
                shutdown(pair.server, Int32(SHUT_RDWR))
            }
            connectionsCut += pairs.count
        }
    }

    /// Stops carrying every open connection's bytes, for good, leaving both ends open, and
    /// refuses new connections for `seconds`.
    public func freeze(for seconds: Double) {
        lock.withLock {
            refuseUntil = Date().addingTimeInterval(seconds)
            frozen += pairs
            connectionsCut += pairs.count
            pairs.removeAll()
        }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while lock.withLock({ running }) {
            let current = lock.withLock { pairs }
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for pair in current {
                descriptors.append(pollfd(fd: pair.client, events: Int16(POLLIN), revents: 0))
                descriptors.append(pollfd(fd: pair.server, events: Int16(POLLIN), revents: 0))
            }
            guard poll(&descriptors, nfds_t(descriptors.count), 50) > 0 else { continue }
            if descriptors[0].revents != 0 { accept() }
            var dead: Set<Int32> = []
            for (index, pair) in current.enumerated() {
                for (from, to, slot) in [(pair.client, pair.server, 1 + 2 * index), (pair.server, pair.client, 2 + 2 * index)]
                where descriptors[slot].revents != 0
                {
                    let count = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
                    if count <= 0 || (try? TCP.send(to, Array(buffer.prefix(count)))) == nil { dead.insert(pair.client) }
                }
            }
            guard !dead.isEmpty else { continue }
            lock.withLock {
                pairs.removeAll { pair in
                    guard dead.contains(pair.client) else { return false }
                    close(pair.client)
                    close(pair.server)
                    return true
                }
            }
        }
    }

    private func accept() {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { return }
        guard lock.withLock({ refuseUntil }) < Date(), let server = try? TCP.connect(host: "127.0.0.1", port: upstreamPort, timeout: 5) else {
            close(client)
            return
        }
        // Blocking sends with no timeout on the forwarding side.
        var none = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(server, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(server, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        lock.withLock { pairs.append((client, server)) }
    }
}
