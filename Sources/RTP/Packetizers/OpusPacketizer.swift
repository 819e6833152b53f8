/// Opus over RTP (RFC 7587 §4.2, https://www.rfc-editor.org/rfc/rfc7587#section-4.2): the payload
/// is exactly one Opus packet, never split. A packet larger than the payload limit cannot be sent
/// (an encoder at a WebRTC bitrate makes 20 ms packets of a few hundred bytes at most).
public struct OpusPacketizer: Packetizer {
    public init() {}

    public mutating func packetize(_ frame: [UInt8], maxPayloadSize: Int) -> [[UInt8]] {
        guard !frame.isEmpty, frame.count <= maxPayloadSize else { return [] }
        return [frame]
    }
}
