import CLinux
import Glibc
import Net

/// A non-blocking UDP socket (owned: closed in `deinit`) that receives and sends in batches
/// (recvmmsg/sendmmsg), so one system call moves up to 64 datagrams.
public final class UDPSocket: Sendable {
    public let descriptor: Int32
    /// The address it is bound to (the kernel's choice when bound to port 0).
    public let localAddress: SocketAddress

    /// The largest datagram received; anything longer is truncated by the kernel and dropped here.
    public static let maxDatagram = 1500

    /// Binds to `address` (port 0: any free port).
    public init(bind address: SocketAddress, receiveBuffer: Int = 4 << 20, sendBuffer: Int = 4 << 20) throws(TransportError) {
        let family = address.ip.bytes.count == 4 ? AF_INET : AF_INET6
        let descriptor = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("socket") }
        var receive = Int32(receiveBuffer), send = Int32(sendBuffer)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &receive, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &send, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockaddr { Glibc.bind(descriptor, $0, $1) }
        guard bound == 0 else {
            let error = TransportError.system("bind \(address)")
            close(descriptor)
            throw error
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, let local = SocketAddress(storage) else {
            close(descriptor)
            throw .system("getsockname")
        }
        self.descriptor = descriptor
        localAddress = local
    }

    deinit {
        close(descriptor)
    }

    /// Receives what is waiting (at most the batch's capacity) without blocking; 0 when nothing is.
    public func receive(into batch: inout DatagramBatch) -> Int {
        batch.count = 0
        let received = batch.buffer.withUnsafeMutableBufferPointer { buffer in
            batch.lengths.withUnsafeMutableBufferPointer { lengths in
                batch.sources.withUnsafeMutableBufferPointer { sources in
                    revue_recv_batch(descriptor, buffer.baseAddress, Int32(UDPSocket.maxDatagram), Int32(batch.capacity),
                                     lengths.baseAddress, sources.baseAddress)
                }
            }
        }
        batch.count = max(0, Int(received))
        return batch.count
    }

    /// Sends one datagram; false if the kernel refused it (its buffer is full, or the address
    /// cannot be reached). Media is never retried: a late packet is worse than a lost one.
    @discardableResult
    public func send(_ bytes: [UInt8], to address: SocketAddress) -> Bool {
        let sent = bytes.withUnsafeBytes { payload in
            address.withSockaddr { sendto(descriptor, payload.baseAddress, payload.count, Int32(MSG_DONTWAIT), $0, $1) }
        }
        return sent == bytes.count
    }

    /// Sends the queued datagrams in batches; returns how many went out.
    @discardableResult
    public func send(_ queue: inout SendQueue) -> Int {
        var sent = 0
        var start = 0
        while start < queue.count {
            let count = min(Int(REVUE_BATCH_MAX), queue.count - start)
            let result = queue.bytes.withUnsafeBufferPointer { bytes -> Int32 in
                queue.offsets.withUnsafeBufferPointer { offsets -> Int32 in
                    queue.lengths.withUnsafeBufferPointer { lengths -> Int32 in
                        queue.destinations.withUnsafeBufferPointer { destinations -> Int32 in
                            queue.destinationLengths.withUnsafeBufferPointer { destinationLengths -> Int32 in
                                guard let offsets = offsets.baseAddress, let lengths = lengths.baseAddress,
                                      let destinations = destinations.baseAddress, let destinationLengths = destinationLengths.baseAddress
                                else { return -1 }
                                return revue_send_batch(descriptor, bytes.baseAddress, offsets + start, lengths + start, destinations + start,
                                                        destinationLengths + start, Int32(count))
                            }
                        }
                    }
                }
            }
            // A datagram the kernel refused (EAGAIN, an unreachable port) is dropped, not retried.
            sent += max(0, Int(result))
            start += result > 0 ? Int(result) : 1
        }
        queue.removeAll()
        return sent
    }
}
