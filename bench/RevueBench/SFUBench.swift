import CSocketBatch
import Foundation
import RTP
import SFU
import SRTP

/// `bench/sfu`: RTP packets per second one core forwards from one publisher to 1, 10 and 50
/// subscribers through `SFU.Router`, beside a plain UDP relay doing the same fan-out with
/// recvmmsg/sendmmsg on loopback, in the same run.
///
/// Four loops, each over batches of 32 synthetic VP8 packets (1,100-byte payloads, mid,
/// abs-send-time and transport-cc extensions, a keyframe every 100 frames of 4 packets):
/// - `router`: `Router.receiveRTP` into a reused `RouterOutput` (and `poll` when due);
/// - `router+srtp-cm`, `router+srtp-gcm`: the same plus `SRTPSession.protectRTP` of every
///   output with that subscriber's session (AES_CM_128_HMAC_SHA1_80 or AEAD_AES_128_GCM), as
///   the transport would;
/// - `relay`: recvmmsg of the batch from a UDP socket, sendmmsg of each packet to every
///   subscriber socket (the reference: no RTP work at all);
/// - `router+relay`: recvmmsg, `Router.receiveRTP` from the receive buffers, sendmmsg of the
///   router's output: a whole SFU thread without SRTP.
/// Only the work is timed, with the thread's CPU clock: building the input batch, feeding it
/// to the relay socket and draining the subscriber sockets are not.
enum SFUBench {
    static let batch = 32

    /// Runs every mode, or only `only` (and the relay it is compared with).
    static func run(outputs: Int, only: String? = nil) throws {
        let template = SyntheticStream(frames: 100, packetsPerFrame: 4, payloadSize: 1100)
        print("sfu: one VP8 publisher, \(template.packets.count)-packet GOP of \(template.packets[0].count)-byte packets, batches of \(batch)")
        print("fan-out  mode             in packets/s   out packets/s   CPU s   vs relay")
        for fanout in [1, 10, 50] {
            // About the same number of packets out for every fan-out.
            let inputs = max(batch * 40, outputs / fanout / batch * batch)
            let relay = try Relay(fanout: fanout)
            let reference = try relay.measure(inputs: inputs, template: template, router: nil)
            let modes: [(String, () throws -> Measurement)] = [
                ("router", { try measureRouter(fanout: fanout, inputs: inputs, template: template, srtp: nil) }),
                ("router+srtp-cm", { try measureRouter(fanout: fanout, inputs: inputs, template: template, srtp: .aes128CMHMACSHA1_80) }),
                ("router+srtp-gcm", { try measureRouter(fanout: fanout, inputs: inputs, template: template, srtp: .aeadAES128GCM) }),
                ("relay", { reference }),
                ("router+relay", { try relay.measure(inputs: inputs, template: template, router: try makeRouter(fanout: fanout)) }),
            ]
            for (mode, measure) in modes where only == nil || mode == only || mode == "relay" {
                let result = try measure()
                let name = mode.padding(toLength: 16, withPad: " ", startingAt: 0)
                print(String(format: "%7d  ", fanout) + name
                    + String(format: "%12.0f %15.0f %8.3f %10.2f", result.inputRate, result.outputRate, result.seconds,
                             result.inputRate / reference.inputRate))
            }
        }
    }

    struct Measurement {
        var inputs: Int
        var outputs: Int
        var seconds: Double

        var inputRate: Double { Double(inputs) / seconds }
        var outputRate: Double { Double(outputs) / seconds }
    }

    /// A router with one VP8 producer on peer 0 and `fanout` consumers on peers 1...fanout, as
    /// a browser subscriber negotiates them (RTX, mid, abs-send-time).
    static func makeRouter(fanout: Int) throws -> (Router, ProducerID) {
        var configuration = RouterConfiguration()
        configuration.seed = 1
        let router = Router(configuration: configuration)
        let producer = try router.addProducer(
            ProducerParameters(peer: 0, participant: "publisher", kind: .video, codec: .vp8, payloadType: 96, clockRate: 90_000,
                               rtxPayloadType: 97, mid: "1", extensions: HeaderExtensionIDs(mid: 4, absSendTime: 2, transportCC: 3),
                               layers: [SimulcastLayer(ssrc: SyntheticStream.ssrc)], feedback: .video),
            now: 0)
        for peer in 1...fanout {
            _ = try router.addConsumer(
                of: producer,
                ConsumerOptions(peer: PeerID(UInt64(peer)), payloadType: 100, rtxPayloadType: 101, mid: "v",
                                extensions: HeaderExtensionIDs(mid: 9, absSendTime: 5)),
                now: 0)
        }
        return (router, producer)
    }

    static func measureRouter(fanout: Int, inputs: Int, template: SyntheticStream, srtp: SRTPProtectionProfile?) throws -> Measurement {
        let (router, producer) = try makeRouter(fanout: fanout)
        var sessions: [SRTPSession] = []
        if let profile = srtp {
            var generator = SystemRandomNumberGenerator()
            func keys() -> SRTPKeyingMaterial {
                SRTPKeyingMaterial(masterKey: (0..<profile.masterKeyLength).map { _ in generator.next() },
                                   masterSalt: (0..<profile.masterSaltLength).map { _ in generator.next() })
            }
            for _ in 0...fanout { sessions.append(try SRTPSession(profile: profile, local: keys(), remote: keys())) }
        }
        var output = RouterOutput(byteCapacity: batch * fanout * 1300, packetCapacity: batch * fanout + 64)
        var stream = template
        var measurement = Measurement(inputs: 0, outputs: 0, seconds: 0)
        var protectedBytes = 0
        while measurement.inputs < inputs {
            stream.prepareBatch(batch)
            let start = ThreadCPUClock.now()
            for index in 0..<batch {
                let now = stream.time(of: index)
                stream.batch[index].withUnsafeBufferPointer { router.receiveRTP($0, fromProducer: producer, now: now, into: &output) }
                if let deadline = router.nextDeadline, deadline <= now { router.poll(now: now, into: &output) }
            }
            for packet in output.packets where packet.kind == .rtp {
                measurement.outputs += 1
                if srtp != nil { protectedBytes += try sessions[Int(packet.peer.rawValue)].protectRTP(Array(output.bytes(of: packet))).count }
            }
            output.removeAll()
            measurement.seconds += ThreadCPUClock.now() - start
            measurement.inputs += batch
        }
        if srtp != nil, protectedBytes == 0 { throw BenchError("SRTP protected nothing") }
        return measurement
    }
}

/// The thread's CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID)).
enum ThreadCPUClock {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// One group of pictures of synthetic VP8 RTP, replayed with sequence numbers, timestamps,
/// picture IDs and transport-wide numbers moving on, so the router sees one endless stream.
struct SyntheticStream {
    static let ssrc: UInt32 = 0x5EED_0001
    let packets: [[UInt8]]
    let packetsPerFrame: Int
    /// The packets of the current batch, patched.
    var batch: [[UInt8]] = []
    private var next = 0

    init(frames: Int, packetsPerFrame: Int, payloadSize: Int) {
        self.packetsPerFrame = packetsPerFrame
        var packets: [[UInt8]] = []
        for frame in 0..<frames {
            for part in 0..<packetsPerFrame {
                var payload: [UInt8] = [0x90, 0x80, 0x80, 0x00] // X, S; I; 15-bit picture ID
                if part > 0 { payload[0] = 0x80 }
                payload.append(frame == 0 && part == 0 ? 0x10 : 0x11)
                while payload.count < payloadSize { payload.append(UInt8(truncatingIfNeeded: payload.count &* 31)) }
                let extensions = RTPHeaderExtension.oneByte([
                    .init(id: 4, data: Array("1".utf8)), .init(id: 2, data: [0, 0, 0]), .init(id: 3, data: [0, 0]),
                ])
                let packet = RTPPacket(marker: part == packetsPerFrame - 1, payloadType: 96, sequenceNumber: 0, timestamp: 0,
                                       ssrc: Self.ssrc, headerExtension: extensions, payload: payload)
                packets.append((try? packet.marshal()) ?? [])
            }
        }
        self.packets = packets
    }

    /// Where the patched fields sit (the same in every packet of the template): the
    /// abs-send-time and transport-cc element data, and the VP8 picture ID.
    private var absSendTimeOffset = 0
    private var transportOffset = 0
    private var pictureIDOffset = 0

    /// Fills `batch` with the next `count` packets.
    mutating func prepareBatch(_ count: Int) {
        if pictureIDOffset == 0 { locateFields() }
        if batch.count != count { batch = Array(repeating: [], count: count) }
        for index in 0..<count {
            let number = next + index
            let template = packets[number % packets.count]
            batch[index].removeAll(keepingCapacity: true)
            batch[index].append(contentsOf: template)
            let frame = number / packetsPerFrame
            let sequence = UInt16(truncatingIfNeeded: number)
            let timestamp = UInt32(truncatingIfNeeded: frame &* 3000)
            let pictureID = UInt16(truncatingIfNeeded: frame) & 0x7FFF
            let sendTime = UInt32(truncatingIfNeeded: Int(Double(frame) / 30 * 262_144)) & 0xFF_FFFF
            let (absOffset, transport, picture) = (absSendTimeOffset, transportOffset, pictureIDOffset)
            batch[index].withUnsafeMutableBufferPointer { bytes in
                bytes[2] = UInt8(sequence >> 8)
                bytes[3] = UInt8(truncatingIfNeeded: sequence)
                bytes[4] = UInt8(truncatingIfNeeded: timestamp >> 24)
                bytes[5] = UInt8(truncatingIfNeeded: timestamp >> 16)
                bytes[6] = UInt8(truncatingIfNeeded: timestamp >> 8)
                bytes[7] = UInt8(truncatingIfNeeded: timestamp)
                bytes[absOffset] = UInt8(truncatingIfNeeded: sendTime >> 16)
                bytes[absOffset + 1] = UInt8(truncatingIfNeeded: sendTime >> 8)
                bytes[absOffset + 2] = UInt8(truncatingIfNeeded: sendTime)
                bytes[transport] = UInt8(sequence >> 8)
                bytes[transport + 1] = UInt8(truncatingIfNeeded: sequence)
                bytes[picture] = 0x80 | UInt8(pictureID >> 8)
                bytes[picture + 1] = UInt8(truncatingIfNeeded: pictureID)
            }
        }
        batchStart = next
        next += count
    }

    /// Finds the fields in the first template packet: 12-byte header, the one-byte extension
    /// block (RFC 8285 §4.2), then the payload descriptor `X|S`, `I`, two picture ID bytes.
    private mutating func locateFields() {
        let packet = packets[0]
        let words = Int(packet[14]) << 8 | Int(packet[15])
        var index = 16
        while index < 16 + 4 * words {
            let id = packet[index] >> 4
            let length = Int(packet[index] & 0x0F) + 1
            if id == 0 {
                index += 1
                continue
            }
            if id == 2 { absSendTimeOffset = index + 1 }
            if id == 3 { transportOffset = index + 1 }
            index += 1 + length
        }
        pictureIDOffset = 16 + 4 * words + 2
    }

    private var batchStart = 0

    /// Arrival time of a packet of the batch: 30 frames a second.
    func time(of index: Int) -> Double {
        Double((batchStart + index) / packetsPerFrame) / 30
    }
}

/// The reference: UDP sockets on 127.0.0.1, one feeding the relay socket and one per subscriber.
final class Relay {
    let fanout: Int
    private let feeder: Int32
    private let relay: Int32
    private let receivers: [Int32]
    private var relayAddress = sockaddr_in()
    private let destinations: UnsafeMutablePointer<sockaddr_in>
    private let receiveBuffers: UnsafeMutablePointer<UInt8>
    private let receiveIOVs: UnsafeMutablePointer<iovec>
    private let receiveHeaders: UnsafeMutablePointer<revue_mmsghdr>
    private let sendIOVs: UnsafeMutablePointer<iovec>
    private let sendHeaders: UnsafeMutablePointer<revue_mmsghdr>
    private let maxSends: Int
    static let slot = 2048

    init(fanout: Int) throws {
        self.fanout = fanout
        feeder = try Self.socket()
        relay = try Self.socket()
        relayAddress = try Self.bind(relay)
        var receivers: [Int32] = []
        destinations = .allocate(capacity: fanout + 1)
        for index in 1...fanout {
            let receiver = try Self.socket()
            destinations[index] = try Self.bind(receiver)
            receivers.append(receiver)
        }
        self.receivers = receivers
        receiveBuffers = .allocate(capacity: SFUBench.batch * Self.slot)
        receiveIOVs = .allocate(capacity: SFUBench.batch)
        receiveHeaders = .allocate(capacity: SFUBench.batch)
        maxSends = SFUBench.batch * fanout + 64
        sendIOVs = .allocate(capacity: maxSends)
        sendHeaders = .allocate(capacity: maxSends)
    }

    deinit {
        close(feeder)
        close(relay)
        for receiver in receivers { close(receiver) }
        destinations.deallocate()
        receiveBuffers.deallocate()
        receiveIOVs.deallocate()
        receiveHeaders.deallocate()
        sendIOVs.deallocate()
        sendHeaders.deallocate()
    }

    static func socket() throws -> Int32 {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var size: Int32 = 4 << 20
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Binds to 127.0.0.1 on a free port; returns the address.
    static func bind(_ fd: Int32) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        return address
    }

    /// Sends the batch to the relay socket (not timed).
    private func feed(_ batch: [[UInt8]]) throws {
        for packet in batch {
            let sent = packet.withUnsafeBytes { bytes in
                withUnsafePointer(to: &relayAddress) { address in
                    address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(feeder, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            guard sent == packet.count else { throw BenchError("feed: \(String(cString: strerror(errno)))") }
        }
    }

    /// Empties every subscriber socket (not timed); returns the datagrams found.
    private func drain() -> Int {
        var count = 0
        for receiver in receivers {
            while true {
                prepareReceive()
                let received = revue_recvmmsg(receiver, receiveHeaders, UInt32(SFUBench.batch), Int32(MSG_DONTWAIT))
                guard received > 0 else { break }
                count += Int(received)
            }
        }
        return count
    }

    private func prepareReceive() {
        for index in 0..<SFUBench.batch {
            receiveIOVs[index] = iovec(iov_base: UnsafeMutableRawPointer(receiveBuffers + index * Self.slot), iov_len: Self.slot)
            receiveHeaders[index] = revue_mmsghdr()
            receiveHeaders[index].msg_hdr.msg_iov = receiveIOVs + index
            receiveHeaders[index].msg_hdr.msg_iovlen = 1
        }
    }

    /// Sends the first `count` prepared messages, at most 1,024 per call (UIO_MAXIOV).
    private func flush(_ count: Int) throws {
        var offset = 0
        while offset < count {
            let chunk = min(1024, count - offset)
            let sent = revue_sendmmsg(relay, sendHeaders + offset, UInt32(chunk), 0)
            guard sent > 0 else { throw BenchError("sendmmsg: \(String(cString: strerror(errno)))") }
            offset += Int(sent)
        }
    }

    private func message(_ index: Int, base: UnsafeRawPointer, length: Int, to peer: Int) {
        sendIOVs[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: length)
        sendHeaders[index] = revue_mmsghdr()
        sendHeaders[index].msg_hdr.msg_name = UnsafeMutableRawPointer(destinations + peer)
        sendHeaders[index].msg_hdr.msg_namelen = socklen_t(MemoryLayout<sockaddr_in>.size)
        sendHeaders[index].msg_hdr.msg_iov = sendIOVs + index
        sendHeaders[index].msg_hdr.msg_iovlen = 1
    }

    /// Relays `inputs` packets: each batch received with one recvmmsg and sent on with sendmmsg,
    /// to every subscriber as it is, or through `router` when given.
    func measure(inputs: Int, template: SyntheticStream, router: (Router, ProducerID)?) throws -> SFUBench.Measurement {
        var stream = template
        var output = RouterOutput(byteCapacity: SFUBench.batch * fanout * 1300, packetCapacity: maxSends)
        var measurement = SFUBench.Measurement(inputs: 0, outputs: 0, seconds: 0)
        var delivered = 0
        while measurement.inputs < inputs {
            stream.prepareBatch(SFUBench.batch)
            try feed(stream.batch)
            prepareReceive()
            let start = ThreadCPUClock.now()
            let received = Int(revue_recvmmsg(relay, receiveHeaders, UInt32(SFUBench.batch), Int32(MSG_DONTWAIT)))
            guard received > 0 else { throw BenchError("recvmmsg: \(String(cString: strerror(errno)))") }
            var count = 0
            if let (router, producer) = router {
                for index in 0..<received {
                    let packet = UnsafeBufferPointer(start: receiveBuffers + index * Self.slot, count: Int(receiveHeaders[index].msg_len))
                    let now = stream.time(of: index)
                    router.receiveRTP(packet, fromProducer: producer, now: now, into: &output)
                    if let deadline = router.nextDeadline, deadline <= now { router.poll(now: now, into: &output) }
                }
                try output.bytes.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    for packet in output.packets where packet.kind == .rtp && packet.peer.rawValue >= 1 && count < maxSends {
                        message(count, base: base + packet.range.lowerBound, length: packet.range.count, to: Int(packet.peer.rawValue))
                        count += 1
                    }
                    try flush(count)
                }
                output.removeAll()
            } else {
                for index in 0..<received {
                    let base = UnsafeRawPointer(receiveBuffers + index * Self.slot)
                    let length = Int(receiveHeaders[index].msg_len)
                    for peer in 1...fanout {
                        message(count, base: base, length: length, to: peer)
                        count += 1
                    }
                }
                try flush(count)
            }
            measurement.seconds += ThreadCPUClock.now() - start
            measurement.inputs += received
            measurement.outputs += count
            delivered += drain()
        }
        guard delivered == measurement.outputs else {
            throw BenchError("the subscriber sockets got \(delivered) of \(measurement.outputs) datagrams")
        }
        return measurement
    }
}
