/// The last packets of one RTP stream, kept to answer NACKs (RFC 4585 §6.2.1): the SFU's copy of
/// what a publisher sent (RTX unwrapped), which also catches a consumer up after a keyframe, and
/// a sender's own history of what it sent.
///
/// A ring of `capacity` slots indexed by extended sequence number. Each slot keeps its array
/// once grown, so storing a packet copies bytes but allocates nothing after the first lap.
/// Memory is bounded by `capacity` × the largest packet seen.
public struct PacketCache: Sendable {
    private var slots: [[UInt8]]
    private var sequences: [Int64]
    private var arrivals: [Double]
    private let mask: Int

    public init(capacity: Int) {
        var size = 1
        while size < max(16, capacity) { size <<= 1 }
        slots = Array(repeating: [], count: size)
        sequences = Array(repeating: -1, count: size)
        arrivals = Array(repeating: 0, count: size)
        mask = size - 1
    }

    public var capacity: Int { mask + 1 }

    /// Stores a packet whole.
    public mutating func store(_ packet: UnsafeBufferPointer<UInt8>, sequence: Int64, arrival: Double) {
        let index = Int(truncatingIfNeeded: sequence) & mask
        sequences[index] = sequence
        arrivals[index] = arrival
        slots[index].removeAll(keepingCapacity: true)
        slots[index].append(contentsOf: packet)
    }

    /// Whether the packet with `sequence` is held and not older than `maxAge`.
    public func contains(_ sequence: Int64, now: Double, maxAge: Double) -> Bool {
        let index = Int(truncatingIfNeeded: sequence) & mask
        return sequences[index] == sequence && now - arrivals[index] <= maxAge
    }

    /// Calls `body` with the packet with `sequence`, if held and not older than `maxAge`.
    public func withPacket<Result>(_ sequence: Int64, now: Double, maxAge: Double,
                            _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result?
    {
        let index = Int(truncatingIfNeeded: sequence) & mask
        guard sequences[index] == sequence, now - arrivals[index] <= maxAge else { return nil }
        return slots[index].withUnsafeBufferPointer(body)
    }

    /// Forgets everything (the stream restarted), keeping the slots' storage.
    public mutating func removeAll() {
        for index in sequences.indices { sequences[index] = -1 }
    }
}
