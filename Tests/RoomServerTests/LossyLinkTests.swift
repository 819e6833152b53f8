import Foundation
import Net
import TestSupport
import Testing
import Transport

/// 3% of the publisher's packets dropped and 5% reordered on their way to the server (a UDP proxy
/// in the test): the server NACKs the publisher, the lost packets come again, and the viewer's
/// video never freezes for more than a second.
extension BrowserRoomTests {
    @Suite struct LossyLinkTests {
        @Test func lossAndReorderingAreRepairedWithoutFreezes() throws {
            let serverPort = try UInt16(freePort())
            let proxy = try LossyUDPProxy(upstream: SocketAddress(ip: .loopbackV4, port: serverPort), dropPercent: 3, reorderPercent: 5, seed: 5)
            let server = try RoomServerHarness(rtcPort: serverPort, announcePort: proxy.port)
            proxy.start()
            defer { proxy.stop() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "fake-media")
            let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
            let publisherBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio))
            let viewerBrowser = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments())
            let publisher = try publisherBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Lossy"))
            let viewer = try viewerBrowser.open(server.joinURL(room: room, token: try server.token(), name: "Viewer", mode: "RECV_ONLY"))
            _ = try JoinPageBrowserTests.wait(10) { try viewer.evaluate("!!window.revue") as? Bool == true }
            _ = try viewer.evaluate("window.revue.watch()")
            let started = try JoinPageBrowserTests.wait(30) { (try viewer.evaluate("window.revue.frames") as? Int ?? 0) > 30 }
            let seen = try JoinPageBrowserTests.stats(viewer)
            #expect(started, "the viewer does not decode: \(seen)")
            // Ten seconds through the lossy link.
            _ = try viewer.evaluate("window.revue.longestFreeze = 0")
            Thread.sleep(forTimeInterval: 10)
            let freeze = try #require(try viewer.evaluate("Math.max(window.revue.longestFreeze, window.revue.currentFreeze)") as? Double)
            print("measured: longest freeze \(Int(freeze)) ms; proxy dropped \(proxy.dropped), reordered \(proxy.reordered)")
            #expect(freeze < 1000, "the viewer's video froze for \(freeze) ms")
            #expect(proxy.dropped > 20 && proxy.reordered > 20, "the proxy dropped \(proxy.dropped) and reordered \(proxy.reordered)")
            let outbound = ((try JoinPageBrowserTests.stats(publisher)["outbound"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "video" }
            let nacks = outbound.map { $0["nackCount"] as? Int ?? 0 }.reduce(0, +)
            let resent = outbound.map { $0["retransmittedPacketsSent"] as? Int ?? 0 }.reduce(0, +)
            print("measured: the publisher got \(nacks) NACKs and resent \(resent) packets")
            #expect(nacks > 0, "the server sent the publisher no NACK")
            #expect(resent > 0, "the publisher resent nothing")
            // The metrics say the same.
            let metrics = String(decoding: try TCP.http("GET", server.base + "/metrics").body, as: UTF8.self)
            func value(_ name: String) -> Double {
                metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") } ?? -1
            }
            #expect(value("revue_sfu_nacks_sent_total") > 0, "\(metrics)")
            #expect(value("revue_sfu_packets_forwarded_total") > 100)
            #expect(value("revue_sfu_plis_sent_total") > 0)
            #expect(value("revue_rtc_connections") >= 3)
            #expect(value("revue_rooms_live") == 1)
        }

        func freePort() throws -> Int {
            let socket = try UDPSocket(bind: SocketAddress(ip: .loopbackV4, port: 0))
            return Int(socket.localAddress.port)
        }
    }
}

/// A UDP proxy in front of the room server: each client gets its own upstream socket (so the
/// server sees one address per client, as through a NAT); RTP from clients to the server is
/// dropped or reordered at the given rates, everything else passes. With `bitrateLimit` set,
/// the clients' RTP goes up no faster than that: a bottleneck link whose queue holds a quarter
/// of a second, past which packets are dropped (`policed`).
final class LossyUDPProxy: @unchecked Sendable {
    let port: UInt16
    private let front: UDPSocket
    private let upstream: SocketAddress
    private let dropPercent: UInt64
    private let reorderPercent: UInt64
    private var generator: SeededGenerator
    private let lock = NSLock()
    private var clients: [SocketAddress: UDPSocket] = [:]
    private var held: [SocketAddress: [UInt8]] = [:]
    private var running = true
    private var thread: Thread?
    private(set) var dropped = 0
    private(set) var reordered = 0
    /// Clients in the order they were first seen.
    private var order: [SocketAddress] = []
    /// Clients whose every datagram, both ways, is dropped until this time (a link that is down).
    private var cutUntil: [SocketAddress: Date] = [:]
    private var fromServer: [SocketAddress: Int] = [:]
    /// The bottleneck: bits a second, and what waits in its queue (proxy thread only).
    private var limit: Int?
    private var queue: [(due: Date, socket: UDPSocket, bytes: [UInt8])] = []
    private var lastDue = Date.distantPast
    private(set) var policed = 0
    static let bottleneckQueue = 0.25

    /// Bits a second the clients' RTP may use upstream; nil lifts the limit.
    var bitrateLimit: Int? {
        get { lock.withLock { limit } }
        set { lock.withLock { limit = newValue } }
    }

    init(upstream: SocketAddress, dropPercent: UInt64, reorderPercent: UInt64, seed: UInt64) throws {
        front = try UDPSocket(bind: SocketAddress(ip: .loopbackV4, port: 0))
        port = front.localAddress.port
        self.upstream = upstream
        self.dropPercent = dropPercent
        self.reorderPercent = reorderPercent
        generator = SeededGenerator(seed: seed)
    }

    /// The clients seen so far, oldest first.
    var clientAddresses: [SocketAddress] { lock.withLock { order } }

    /// Datagrams the server sent to `client` through the proxy.
    func datagramsToClient(_ client: SocketAddress) -> Int { lock.withLock { fromServer[client] ?? 0 } }

    /// Takes `client`'s link down for `seconds`: nothing passes either way, as in a network blip.
    func cut(_ client: SocketAddress, for seconds: Double) {
        lock.withLock { cutUntil[client] = Date().addingTimeInterval(seconds) }
    }

    private func isCut(_ client: SocketAddress) -> Bool {
        lock.withLock { (cutUntil[client] ?? .distantPast) > Date() }
    }

    func start() {
        let thread = Thread { [self] in run() }
        self.thread = thread
        thread.start()
    }

    func stop() {
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
                    for index in 0..<batch.count { front.send(Array(batch.datagram(index).bytes), to: entry.key) }
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
            dropped += 1
            return
        }
        if let limit = bitrateLimit {
            // The packet leaves when the link has carried those before it.
            let start = max(Date(), lastDue)
            guard start.timeIntervalSinceNow < Self.bottleneckQueue else {
                policed += 1
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
            reordered += 1
            held[client] = datagram
            return
        }
        socket.send(datagram, to: upstream)
    }
}
