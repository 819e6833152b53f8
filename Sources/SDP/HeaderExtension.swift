/// `a=extmap:<id>[/<direction>] <uri> [<attributes>]` (RFC 8285 §8): an RTP header extension
/// and the local identifier carried in each packet. IDs 1–14 fit the one-byte form; 15–255 need
/// the two-byte form (RFC 8285 §4.3).
public struct HeaderExtension: Sendable, Equatable {
    /// The ID in the packets.
    public var id: UInt16
    /// The direction given after the ID, if any.
    public var direction: MediaDirection?
    /// The extension's URI.
    public var uri: String
    /// Extension attributes after the URI, as written.
    public var attributes: String?

    /// An extmap entry.
    public init(id: UInt16, uri: String, direction: MediaDirection? = nil, attributes: String? = nil) {
        self.id = id
        self.uri = uri
        self.direction = direction
        self.attributes = attributes
    }

    /// RFC 9143 §14: the MID that BUNDLE demultiplexes by.
    public static let mid = "urn:ietf:params:rtp-hdrext:sdes:mid"
    /// RFC 6464: the audio level of each packet, for speaker detection.
    public static let audioLevel = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"
    /// The send time REMB bandwidth estimation uses.
    public static let absSendTime = "http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time"
    /// The transport-wide sequence number that TWCC feedback refers to.
    public static let transportWideCC = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
    /// RFC 8852 §3.1: carries the RID of a simulcast layer.
    public static let rtpStreamID = "urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id"
    /// RFC 8852 §3.2: carries the RID a retransmission stream repairs.
    public static let repairedRTPStreamID = "urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id"
}
