/// Opus over RTP (RFC 7587, https://www.rfc-editor.org/rfc/rfc7587#section-4.2): the payload is
/// exactly one Opus packet, and every packet is a frame of its own.
///
/// The packet's TOC byte (RFC 6716 §3.1) is checked, so a payload that no decoder could read is
/// rejected here and counted, rather than fed to the decoder.
/// ```
///  0 1 2 3 4 5 6 7
/// +-+-+-+-+-+-+-+-+
/// | config  |s| c |
/// +-+-+-+-+-+-+-+-+
/// ```
public struct OpusDepacketizer: Depacketizer {
    public init() {}

    public mutating func depacketize(_ payload: [UInt8]) throws(RTPParseError) -> DepacketizedPayload {
        _ = try OpusPacketInfo(payload)
        return DepacketizedPayload(data: payload, isFrameStart: true, isKeyframe: true)
    }
}

/// What an Opus packet's TOC byte says about it (RFC 6716 §3.1–3.2).
public struct OpusPacketInfo: Sendable, Equatable {
    /// Samples per channel at 48 kHz in the whole packet.
    public let samplesPerChannel: Int
    public let frameCount: Int
    public let isStereo: Bool

    public init(_ packet: [UInt8]) throws(RTPParseError) {
        guard let toc = packet.first else { throw .truncated("Opus TOC byte", needed: 1, available: 0) }
        let config = Int(toc >> 3)
        isStereo = toc & 0x04 != 0
        // Frame sizes in samples at 48 kHz by configuration (RFC 6716 Table 2).
        let frameSize: Int
        switch config {
        case 0...11: frameSize = [480, 960, 1920, 2880][config % 4] // SILK: 10, 20, 40, 60 ms
        case 12...15: frameSize = [480, 960][config % 2] // Hybrid: 10, 20 ms
        default: frameSize = [120, 240, 480, 960][config % 4] // CELT: 2.5, 5, 10, 20 ms
        }
        switch toc & 0x03 {
        case 0: frameCount = 1
        case 1:
            frameCount = 2
            guard (packet.count - 1) % 2 == 0 else { throw .invalid("Opus code 1 packet with an odd payload length") }
        case 2:
            frameCount = 2
            guard packet.count >= 2 else { throw .truncated("Opus code 2 frame length", needed: 1, available: 0) }
        default:
            guard packet.count >= 2 else { throw .truncated("Opus code 3 frame count", needed: 1, available: 0) }
            frameCount = Int(packet[1] & 0x3F)
            guard frameCount >= 1 else { throw .invalid("Opus code 3 packet with 0 frames") }
        }
        samplesPerChannel = frameSize * frameCount
        // A packet may hold at most 120 ms of audio (RFC 6716 §3.2.5).
        guard samplesPerChannel <= 5760 else { throw .invalid("Opus packet of \(samplesPerChannel) samples (over 120 ms)") }
    }
}
