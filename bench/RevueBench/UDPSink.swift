import Foundation
import CSocketBatch
import Glibc

/// A UDP socket on 127.0.0.1 that a thread drains and counts, standing in for the room server in
/// bench/sdk-encode: the senders' packets must arrive, and what the sink costs is not theirs.
final class UDPSink: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var packets = 0
    private var bytes = 0
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var size: Int32 = 8 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size))
        // A receive timeout, so the thread sees `stop`.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = descriptor
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("bind: \(String(cString: strerror(errno)))") }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in drain() }
        thread.name = "sink"
        thread.start()
    }

    deinit { close(descriptor) }

    var counts: (packets: Int, bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        return (packets, bytes)
    }

    /// What arrived since `before`, once nothing more has come for 0.3 s.
    func settle(from before: (packets: Int, bytes: Int)) -> (packets: Int, bytes: Int) {
        var last = counts
        while true {
            Thread.sleep(forTimeInterval: 0.3)
            let now = counts
            if now == last { return (now.packets - before.packets, now.bytes - before.bytes) }
            last = now
        }
    }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
        done.wait()
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let received = recv(descriptor, &buffer, buffer.count, 0)
            lock.lock()
            if received > 0 {
                packets += 1
                bytes += received
            }
            let stop = stopped
            lock.unlock()
            if stop { break }
        }
        done.signal()
    }
}

/// A connected UDP socket to the sink.
final class UDPSinkSocket {
    private let descriptor: Int32

    init(to port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        var size: Int32 = 8 << 20
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let descriptor = descriptor
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw BenchError("connect: \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
