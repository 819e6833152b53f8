/// Splits one encoded frame into RTP payloads, the send side of `Depacketizer`. One file per
/// codec, pion-style (pion's `Payloader` has this one method): each has a round-trip test through
/// its depacketizer beside it.
public protocol Packetizer: Sendable {
    /// The payloads for one frame, in order, each at most `maxPayloadSize` bytes. Empty when the
    /// frame is empty or cannot be carried in payloads of that size.
    mutating func packetize(_ frame: [UInt8], maxPayloadSize: Int) -> [[UInt8]]

    /// The same, for a frame of a temporal layer (nil: none), which a payload format that
    /// carries layers writes into its payload headers (VP8's TID, RFC 7741 §4.2).
    mutating func packetize(_ frame: [UInt8], temporalLayer: TemporalLayer?, maxPayloadSize: Int) -> [[UInt8]]
}

extension Packetizer {
    /// A payload format with no layer field (H.264 mode 1, Opus) packetizes the frame as it is.
    public mutating func packetize(_ frame: [UInt8], temporalLayer: TemporalLayer?, maxPayloadSize: Int) -> [[UInt8]] {
        packetize(frame, maxPayloadSize: maxPayloadSize)
    }
}
