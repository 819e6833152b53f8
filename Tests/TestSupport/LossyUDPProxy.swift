import Foundation
import Net
import Transport

/// A UDP proxy in front of the room server: each client gets its own upstream socket (so the
/// server sees one address per client, as through a NAT); RTP from clients to the server is
/// dropped or reordered at the given rates, everything else passes. With `bitrateLimit` set,
/// the clients' RTP goes up no faster than that: a bottleneck link whose queue holds a quarter
/// of a second, past which packets are dropped (`policed`). With `downlinkDropPercent` set, the
/// server's RTP to the clients is dropped at that rate too.
public final class LossyUDPProxy: @unchecked Sendable {
    public let port: UInt16
    private let front: UDPSocket
    /// The server; set before `start()` (`forward(toPort:)`), read on the proxy's thread after.
    private var upstream: SocketAddress
    private let dropPercent: UInt64
    private let reorderPercent: UInt64
    private var generator: SeededGenerator
    private let lock = NSLock()
    private var clients: [SocketAddress: UDPSocket] = [:]
    private var held: [SocketAddress: [UInt8]] = [:]
    private var running = true
    private var thread: Thread?
    /// Counters: written on the proxy's thread, read through the lock.
    private var counts = (dropped: 0, reordered: 0, droppedDown: 0, policed: 0)
    public var dropped: Int { lock.withLock { counts.dropped } }
    public var reordered: Int { lock.withLock { counts.reordered } }
    /// Clients in the order they were first seen.
    private var order: [SocketAddress] = []
    /// Clients whose every datagram, both ways, is dropped until this time (a link that is down).
    private var cutUntil: [SocketAddress: Date] = [:]
    private var fromServer: [SocketAddress: Int] = [:]
    /// The bottleneck: bits a second, and what waits in its queue (proxy thread only).
    private var limit: Int?
    private var queue: [(due: Date, socket: UDPSocket, bytes: [UInt8])] = []
    private var lastDue = Date.distantPast
    public var policed: Int { lock.withLock { counts.policed } }
    public static let bottleneckQueue = 0.25

    /// Percent of the server's RTP to the clients that is dropped (a lossy downlink); 0 by default.
    public var downlinkDropPercent: UInt64 {
        get { lock.withLock { downlinkDrop } }
        set { lock.withLock { downlinkDrop = newValue } }
    }
    private var downlinkDrop: UInt64 = 0
    public var droppedDown: Int { lock.withLock { counts.droppedDown } }

    /// Bits a second the clients' RTP may use upstream; nil lifts the limit.
    public var bitrateLimit: Int? {
        get { lock.withLock { limit } }
        set { lock.withLock { limit = newValue } }
    }

    public init(upstream: SocketAddress, dropPercent: UInt64, reorderPercent: UInt64, seed: UInt64) throws {
        front = try UDPSocket(bind: SocketAddress(ip: .loopbackV4, port: 0))
        port = front.localAddress.port
        self.upstream = upstream
        self.dropPercent = dropPercent
        self.reorderPercent = reorderPercent
        generator = SeededGenerator(seed: seed)
    }

    /// A proxy for a server not started yet: start the server announcing `port`, then name the
    /// port it bound with `forward(toPort:)`, then `start()`. No port is picked ahead and freed,
    /// so nothing else can take it in between.
    public convenience init(dropPercent: UInt64, reorderPercent: UInt64, seed: UInt64) throws {
        try self.init(upstream: SocketAddress(ip: .loopbackV4, port: 0), dropPercent: dropPercent, reorderPercent: reorderPercent, seed: seed)
    }

    /// The server's port on loopback; before `start()`.
    public func forward(toPort port: UInt16) {
        upstream = SocketAddress(ip: .loopbackV4, port: port)
    }

    /// The clients seen so far, oldest first.
    public var clientAddresses: [SocketAddress] { lock.withLock { order } }

    /// Datagrams the server sent to `client` through the proxy.
    public func datagramsToClient(_ client: SocketAddress) -> Int { lock.withLock { fromServer[client] ?? 0 } }

    /// Takes `client`'s link down for `seconds`: nothing passes either way, as in a network blip.
    public func cut(_ client: SocketAddress, for seconds: Double) {
        lock.withLock { cutUntil[client] = Date().addingTimeInterval(seconds) }
    }

    private func isCut(_ client: SocketAddress) -> Bool {
        lock.withLock { (cutUntil[client] ?? .distantPast) > Date() }
    }

    public func start() {
        let thread = Thread { [self] in run() }
        self.thread = thread
        thread.start()
    }

    public func stop() {
        lock.lock()
        running = false
        lock.unlock()
        Thread.sleep(forTimeInterval: 0.05)
    }

    private func run() {
        var batch = DatagramBatch()
        while true {
            lock.lock()
            let go = running
            let sockets = Array(clients)
            lock.unlock()
            guard go else { return }
            var descriptors = [pollfd(fd: front.descriptor, events: Int16(POLLIN), revents: 0)]
                + sockets.map { pollfd(fd: $0.value.descriptor, events: Int16(POLLIN), revents: 0) }
            releaseQueued()
            let wait = queue.first.map { max(0, min(20, Int32($0.due.timeIntervalSinceNow * 1000))) } ?? 20
            guard poll(&descriptors, nfds_t(descriptors.count), wait) > 0 else { continue }
            if descriptors[0].revents != 0, front.receive(into: &batch) > 0 {
                for index in 0..<batch.count {
                    let (bytes, source) = batch.datagram(index)
                    guard let source else { continue }
                    forwardUp(Array(bytes), from: source)
                }
            }
            for (offset, entry) in sockets.enumerated() where descriptors[offset + 1].revents != 0 {
                while entry.value.receive(into: &batch) > 0 {
                    let cut = isCut(entry.key)
                    lock.withLock { fromServer[entry.key, default: 0] += batch.count }
                    guard !cut else { continue }
                    let downDrop = downlinkDropPercent
                    for index in 0..<batch.count {
                        let bytes = Array(batch.datagram(index).bytes)
                        if downDrop > 0, DatagramClass(bytes) == .rtp, generator.next() % 100 < downDrop {
                            lock.withLock { counts.droppedDown += 1 }
                            continue
                        }
                        front.send(bytes, to: entry.key)
                    }
                }
            }
        }
    }

    /// Sends the bottleneck's packets whose time has come.
    private func releaseQueued() {
        let now = Date()
        while let first = queue.first, first.due <= now {
            queue.removeFirst()
            first.socket.send(first.bytes, to: upstream)
        }
    }

    private func forwardUp(_ datagram: [UInt8], from client: SocketAddress) {
        let socket: UDPSocket
        if let existing = clients[client] {
            socket = existing
        } else {
            guard let made = try? UDPSocket(bind: SocketAddress(ip: .loopbackV4, port: 0)) else { return }
            lock.lock()
            clients[client] = made
            order.append(client)
            lock.unlock()
            socket = made
        }
        guard !isCut(client) else { return }
        guard DatagramClass(datagram) == .rtp else {
            socket.send(datagram, to: upstream)
            return
        }
        let roll = generator.next() % 100
        if roll < dropPercent {
            lock.withLock { counts.dropped += 1 }
            return
        }
        if let limit = bitrateLimit {
            // The packet leaves when the link has carried those before it.
            let start = max(Date(), lastDue)
            guard start.timeIntervalSinceNow < Self.bottleneckQueue else {
                lock.withLock { counts.policed += 1 }
                return
            }
            lastDue = start.addingTimeInterval(Double(datagram.count * 8) / Double(limit))
            queue.append((lastDue, socket, datagram))
            return
        }
        if let waiting = held.removeValue(forKey: client) {
            // The held packet goes after this one: they arrive swapped.
            socket.send(datagram, to: upstream)
            socket.send(waiting, to: upstream)
            return
        }
        if roll < dropPercent + reorderPercent {
            lock.withLock { counts.reordered += 1 }
            held[client] = datagram
            return
        }
        socket.send(datagram, to: upstream)
    }
}
