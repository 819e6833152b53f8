import RTP

/// The send state of one SSRC (RFC 3550 §5.1, §6.4.1): sequence numbers and timestamps from
/// random starts, the counts a sender report carries, and, for video, the history that NACKs
/// are answered from (RFC 4585 §6.2.1) with RTX's own sequence space (RFC 4588 §4).
struct OutgoingStream: Sendable {
    let track: SendTrack
    var packetizer: any Packetizer
    /// The next packet's extended sequence number (its low 16 bits go on the wire).
    var sequence: Int64
    var rtxSequence: UInt16
    let timestampBase: UInt32
    /// RFC 3550 §6.4.1: packets and payload octets (no headers, no padding) sent so far.
    var packetsSent: UInt32 = 0
    var octetsSent: UInt32 = 0
    var history: PacketCache?
    /// When the next sender report is due; nil until the first packet has gone, and once ended.
    var nextReport: Double?
    /// Ended (`MediaSender.end`): no frames, no reports; its BYE has gone.
    var ended = false
    /// The last FIR sequence number seen from each requester (RFC 5104 §4.3.1.2: a repeat is not a new request).
    var firSequences: [UInt32: UInt8] = [:]

    init(track: SendTrack, generator: inout some RandomNumberGenerator) {
        self.track = track
        switch track.codec {
        case .vp8: packetizer = VP8Packetizer(firstPictureID: .random(in: 0...0x7FFF, using: &generator))
        case .h264: packetizer = H264Packetizer()
        case .opus: packetizer = OpusPacketizer()
        }
        sequence = Int64(UInt16.random(in: 0...UInt16.max, using: &generator))
        rtxSequence = .random(in: 0...UInt16.max, using: &generator)
        timestampBase = .random(in: 0...UInt32.max, using: &generator)
        history = !track.codec.isAudio ? PacketCache(capacity: 1024) : nil
    }

    /// The RTP timestamp of a moment `seconds` after the sender's origin.
    func timestamp(at seconds: Double) -> UInt32 {
        timestampBase &+ UInt32(truncatingIfNeeded: Int64((seconds * Double(track.codec.clockRate)).rounded()))
    }

    /// The extended sequence number a 16-bit one from a NACK stands for: the one nearest the
    /// newest sent.
    func extended(_ sequence: UInt16) -> Int64 {
        let newest = self.sequence - 1
        var delta = Int64(sequence) - (newest & 0xFFFF)
        if delta > 0x8000 { delta -= 0x1_0000 } else if delta < -0x8000 { delta += 0x1_0000 }
        return newest + delta
    }
}
