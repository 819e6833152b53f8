import CLinux
import Glibc
import Net

/// Buffers for one `recvmmsg` call, made once and reused, so receiving allocates nothing.
public struct DatagramBatch {
    public let capacity: Int
    var buffer: [UInt8]
    var lengths: [Int32]
    var sources: [sockaddr_storage]
    public internal(set) var count = 0

    public init(capacity: Int = Int(REVUE_BATCH_MAX)) {
        self.capacity = min(capacity, Int(REVUE_BATCH_MAX))
        buffer = [UInt8](repeating: 0, count: self.capacity * UDPSocket.maxDatagram)
        lengths = [Int32](repeating: 0, count: self.capacity)
        sources = [sockaddr_storage](repeating: sockaddr_storage(), count: self.capacity)
    }

    /// Datagram `index`: its bytes and where it came from (nil for an unknown address family).
    public func datagram(_ index: Int) -> (bytes: ArraySlice<UInt8>, source: SocketAddress?) {
        let start = index * UDPSocket.maxDatagram
        let length = min(Int(lengths[index]), UDPSocket.maxDatagram)
        return (buffer[start..<(start + length)], SocketAddress(sources[index]))
    }
}

/// Datagrams waiting to be sent in one `sendmmsg` call, copied into one buffer.
public struct SendQueue {
    var bytes: [UInt8] = []
    var offsets: [Int32] = []
    var lengths: [Int32] = []
    var destinations: [sockaddr_storage] = []
    var destinationLengths: [UInt32] = []

    public init() {
        bytes.reserveCapacity(64 * 1500)
    }

    public var count: Int { offsets.count }

    public mutating func append(_ datagram: [UInt8], to destination: SocketAddress) {
        offsets.append(Int32(bytes.count))
        lengths.append(Int32(datagram.count))
        bytes.append(contentsOf: datagram)
        var storage = sockaddr_storage()
        destinationLengths.append(UInt32(destination.fill(&storage)))
        destinations.append(storage)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        destinations.removeAll(keepingCapacity: true)
        destinationLengths.removeAll(keepingCapacity: true)
    }
}
