/// A reusable batch of what the router produced for one call: packets laid end to end in one
/// byte buffer, plus events. The hot path writes here without allocating once the buffers
/// have grown; call `removeAll()` (which keeps the capacity) before reusing it, and read each
/// packet's bytes with `bytes(of:)` or `withBytes(of:_:)` before then.
public struct RouterOutput: Sendable {
    /// Plain RTP or RTCP.
    public enum Kind: Sendable, Equatable {
        case rtp
        case rtcp
    }

    /// One packet to send: its kind, destination and place in `bytes`.
    public struct Packet: Sendable, Equatable {
        public let kind: Kind
        public let peer: PeerID
        public let range: Range<Int>
    }

    public private(set) var packets: [Packet] = []
    /// Every packet's bytes, one after the other.
    public private(set) var bytes: [UInt8] = []
    public private(set) var events: [RouterEvent] = []

    /// An empty batch with room for `byteCapacity` bytes and `packetCapacity` packets.
    public init(byteCapacity: Int = 64 * 1500, packetCapacity: Int = 64) {
        bytes.reserveCapacity(byteCapacity)
        packets.reserveCapacity(packetCapacity)
    }

    /// Empties the batch, keeping its storage.
    public mutating func removeAll() {
        packets.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
    }

    public var isEmpty: Bool { packets.isEmpty && events.isEmpty }

    /// A packet's bytes (a view into `bytes`, no copy).
    public func bytes(of packet: Packet) -> ArraySlice<UInt8> { bytes[packet.range] }

    /// Calls `body` with a packet's bytes in place.
    public func withBytes<Result>(of packet: Packet, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[packet.range])) }
    }

    /// The batch as actions, each packet copied into its own array.
    public var actions: [RouterAction] {
        var actions: [RouterAction] = []
        actions.reserveCapacity(packets.count + events.count)
        for packet in packets {
            let copy = Array(bytes[packet.range])
            switch packet.kind {
            case .rtp: actions.append(.sendRTP(peer: packet.peer, bytes: copy))
            case .rtcp: actions.append(.sendRTCP(peer: packet.peer, bytes: copy))
            }
        }
        for event in events { actions.append(RouterAction(event)) }
        return actions
    }

    // MARK: Writing (the router's side)

    /// Where the next packet starts.
    var mark: Int { bytes.count }

    /// Records the bytes written since `start` as one packet.
    mutating func commit(_ kind: Kind, peer: PeerID, from start: Int) {
        packets.append(Packet(kind: kind, peer: peer, range: start..<bytes.count))
    }

    /// Forgets the bytes written since `start` (a packet that turned out not to be sent).
    mutating func rollback(to start: Int) {
        bytes.removeSubrange(start...)
    }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append(contentsOf buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    mutating func append(contentsOf other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Overwrites one byte already written.
    mutating func set(_ index: Int, _ value: UInt8) { bytes[index] = value }

    /// Adds one RTCP packet (already serialised) for `peer`.
    mutating func appendRTCP(_ packet: [UInt8], peer: PeerID) {
        let start = mark
        bytes.append(contentsOf: packet)
        commit(.rtcp, peer: peer, from: start)
    }

    mutating func record(_ event: RouterEvent) { events.append(event) }
}
