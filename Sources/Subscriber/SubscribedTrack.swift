import Media
import MediaSource
import SDP

/// One track the server's subscriber offer sends this client: whose it is and what it carries.
/// The recorder (`LiveRoomSource`) and the SDK's receiver (`MediaReceiver`) both read offers
/// with it, so they agree on whose tile a track is.
public struct SubscribedTrack: Sendable, Equatable {
    public var participantID: String
    public var track: TrackDescription

    public init(participantID: String, track: TrackDescription) {
        self.participantID = participantID
        self.track = track
    }

    /// The server names each track's msid stream after its participant, and a screen share's
    /// after `<participantId>-share` (MediaPlane), as the join page reads them.
    static let shareSuffix = "-share"

    /// What an answered subscriber offer sends now, by SSRC: every accepted audio or video
    /// section the server sends in (recvonly on this side), with an msid (RFC 8830 §2) and a
    /// codec Revue decodes. The SSRC is the section's first announced stream, the media one
    /// (RFC 5576 §4.2: an RTX SSRC follows it in the FID group, and with an agreed RTX payload
    /// type the track takes its retransmissions from there). An inactive section (a track
    /// that has gone, kept for the m-line order, RFC 8829 §5.2.2) sends nothing and is left out.
    public static func tracks(in negotiation: Negotiation) -> [UInt32: SubscribedTrack] {
        var tracks: [UInt32: SubscribedTrack] = [:]
        for media in negotiation.media where media.isAccepted && media.kind != .application && media.direction == .recvonly {
            guard let stream = media.remoteStreams.first, let msid = stream.msid ?? media.remoteMSID,
                  let (codec, trackCodec) = media.codecs.lazy.compactMap({ codec in Self.codec(named: codec.name).map { (codec, $0) } }).first
            else { continue }
            let isShare = msid.streamID.hasSuffix(shareSuffix)
            let participantID = isShare ? String(msid.streamID.dropLast(shareSuffix.count)) : msid.streamID
            let kind: TrackKind = media.kind == .audio ? .audio : (isShare ? .share : .video)
            tracks[stream.ssrc] = SubscribedTrack(
                participantID: participantID,
                track: TrackDescription(kind: kind, ssrc: stream.ssrc, codec: trackCodec, payloadType: codec.payloadType,
                                        clockRate: Int(codec.clockRate), channels: Int(codec.channels ?? 1),
                                        rtxSSRC: codec.rtxPayloadType == nil ? nil : stream.rtxSSRC,
                                        rtxPayloadType: stream.rtxSSRC == nil ? nil : codec.rtxPayloadType))
        }
        return tracks
    }

    /// The decodable codec an SDP encoding name stands for (RFC 7741 §6.1, RFC 6184 §8.1, RFC 7587 §7).
    static func codec(named name: String) -> TrackCodec? {
        switch name.lowercased() {
        case "opus": .opus
        case "vp8": .vp8
        case "h264": .h264
        default: nil
        }
    }
}
