/// Splits one encoded frame into RTP payloads, the send side of `Depacketizer`. One file per
/// codec, pion-style (pion's `Payloader` has this one method): each has a round-trip test through
/// its depacketizer beside it.
public protocol Packetizer: Sendable {
    /// The payloads for one frame, in order, each at most `maxPayloadSize` bytes. Empty when the
    /// frame is empty or cannot be carried in payloads of that size.
    mutating func packetize(_ frame: [UInt8], maxPayloadSize: Int) -> [[UInt8]]
}
