import Media
import RTP
import SFU
import TestKit
import Testing

/// Invented VP8 payloads (RFC 7741 §4.2): a descriptor with S set on the first packet of a
/// frame, a 15-bit picture ID and TL0PICIDX when asked, then a frame byte whose low bit is P
/// (0 for a keyframe).
func vp8Payload(keyframe: Bool, start: Bool = true, pictureID: UInt16? = nil, tl0: UInt8? = nil, size: Int = 24) -> [UInt8] {
    var payload: [UInt8] = []
    let extended = pictureID != nil || tl0 != nil
    payload.append((extended ? 0x80 : 0) | (start ? 0x10 : 0))
    if extended { payload.append((pictureID != nil ? 0x80 : 0) | (tl0 != nil ? 0x40 : 0)) }
    if let pictureID {
        payload.append(0x80 | UInt8(pictureID >> 8 & 0x7F))
        payload.append(UInt8(pictureID & 0xFF))
    }
    if let tl0 { payload.append(tl0) }
    payload.append(keyframe ? 0x10 : 0x11)
    while payload.count < size { payload.append(UInt8(truncatingIfNeeded: payload.count)) }
    return payload
}

/// An RTP packet with one-byte header extensions.
func rtp(pt: UInt8 = 96, seq: UInt16, ts: UInt32, ssrc: UInt32, marker: Bool = false, extensions: [(UInt8, [UInt8])] = [],
         payload: [UInt8], padding: UInt8 = 0) -> [UInt8]
{
    let header: RTPHeaderExtension? = extensions.isEmpty ? nil
        : .oneByte(extensions.map { RTPHeaderExtension.Element(id: $0.0, data: $0.1) })
    let packet = RTPPacket(marker: marker, payloadType: pt, sequenceNumber: seq, timestamp: ts, ssrc: ssrc, headerExtension: header,
                           payload: payload, paddingLength: padding)
    do {
        return try packet.marshal()
    } catch {
        preconditionFailure("test packet does not marshal: \(error)")
    }
}

/// The RTP packets among actions, parsed, with their peers.
func sentRTP(_ actions: [RouterAction]) -> [(peer: PeerID, packet: RTPPacket)] {
    actions.compactMap { action in
        guard case .sendRTP(let peer, let bytes) = action, let packet = try? RTPPacket(parsing: bytes) else { return nil }
        return (peer, packet)
    }
}

/// The RTCP packets among actions, parsed, with their peers.
func sentRTCP(_ actions: [RouterAction]) -> [(peer: PeerID, packets: [RTCPPacket])] {
    actions.compactMap { action in
        guard case .sendRTCP(let peer, let bytes) = action, let packets = try? RTCPPacket.parseCompound(bytes) else { return nil }
        return (peer, packets)
    }
}

/// The keyframe requests (PLI and FIR) among actions, by media SSRC.
func keyframeRequests(_ actions: [RouterAction]) -> [UInt32] {
    sentRTCP(actions).flatMap { $0.packets }.compactMap { packet -> UInt32? in
        switch packet {
        case .pictureLossIndication(let pli): pli.mediaSSRC
        case .fullIntraRequest(let fir): fir.entries.first?.ssrc
        default: nil
        }
    }
}

/// One publisher (peer 1, participant "alice") and subscribers, with a router seeded for
/// repeatable SSRCs.
struct Room {
    let router: Router
    static let publisher: PeerID = 1
    static let videoSSRC: UInt32 = 0x1111_0001
    static let rtxSSRC: UInt32 = 0x1111_0002

    init(configure: (inout RouterConfiguration) -> Void = { _ in }) {
        var configuration = RouterConfiguration()
        configuration.seed = 42
        configure(&configuration)
        router = Router(configuration: configuration)
    }

    /// A VP8 camera with RTX, mid 4, abs-send-time 2, transport-cc 3, nack/pli/fir/remb.
    static func camera(layers: [SimulcastLayer] = [SimulcastLayer(ssrc: videoSSRC, rtxSSRC: rtxSSRC)],
                       codec: TrackCodec = .vp8, feedback: FeedbackMechanisms = .video) -> ProducerParameters
    {
        ProducerParameters(peer: publisher, participant: "alice", kind: .video, codec: codec, payloadType: 96, clockRate: 90_000,
                           rtxPayloadType: 97, mid: "1", extensions: HeaderExtensionIDs(mid: 4, rid: 10, repairedRID: 11, absSendTime: 2,
                                                                                        transportCC: 3),
                           layers: layers, feedback: feedback)
    }

    /// A subscriber's options: payload type 100 (RTX 101 when `rtx`), mid "v", mid ID 9 and
    /// abs-send-time ID 5.
    static func subscriber(_ peer: PeerID, rtx: Bool = true, quality: PreferredQuality = .high) -> ConsumerOptions {
        ConsumerOptions(peer: peer, payloadType: 100, rtxPayloadType: rtx ? 101 : nil, mid: "v",
                        extensions: HeaderExtensionIDs(mid: 9, absSendTime: 5), preferredQuality: quality)
    }
}
