/// The RTP header extension IDs one side negotiated (`a=extmap`, RFC 8285), by meaning. The
/// router reads a publisher's packets with the producer's IDs and writes each subscriber's with
/// the consumer's: an extension the subscriber did not negotiate is stripped.
///
/// What the router does with each when forwarding:
/// - `mid`: rewritten to the consumer's mid (RFC 9143 §14), so BUNDLE demultiplexes it;
/// - `rid`, `repairedRID`: stripped (a subscriber gets one plain stream, RFC 8852);
/// - `absSendTime`: rewritten with the router's send time, for the subscriber's REMB;
/// - `audioLevel`: copied (RFC 6464), for the subscriber's speaker display;
/// - `transportCC`: stripped (the router does not run send-side estimation toward subscribers);
/// - `others`: copied when both sides negotiated the same URI (video orientation, playout delay…).
public struct HeaderExtensionIDs: Sendable, Equatable {
    public var mid: UInt8?
    public var rid: UInt8?
    public var repairedRID: UInt8?
    public var absSendTime: UInt8?
    public var audioLevel: UInt8?
    public var transportCC: UInt8?
    /// Any other negotiated extension, by URI.
    public var others: [String: UInt8]

    public init(mid: UInt8? = nil, rid: UInt8? = nil, repairedRID: UInt8? = nil, absSendTime: UInt8? = nil,
                audioLevel: UInt8? = nil, transportCC: UInt8? = nil, others: [String: UInt8] = [:])
    {
        self.mid = mid
        self.rid = rid
        self.repairedRID = repairedRID
        self.absSendTime = absSendTime
        self.audioLevel = audioLevel
        self.transportCC = transportCC
        self.others = others
    }

    /// From `a=extmap` entries (URI and ID), as SDP's `NegotiatedMedia.extensions` lists them.
    /// IDs outside 1...255 are ignored.
    public init(_ entries: [(uri: String, id: UInt16)]) {
        self.init()
        for (uri, wideID) in entries {
            guard (1...255).contains(wideID) else { continue }
            let id = UInt8(wideID)
            switch uri {
            case URI.mid: mid = id
            case URI.rtpStreamID: rid = id
            case URI.repairedRTPStreamID: repairedRID = id
            case URI.absSendTime: absSendTime = id
            case URI.audioLevel: audioLevel = id
            case URI.transportWideCC: transportCC = id
            default: others[uri] = id
            }
        }
    }

    /// The URIs the router knows by meaning.
    public enum URI {
        /// RFC 9143 §14.
        public static let mid = "urn:ietf:params:rtp-hdrext:sdes:mid"
        /// RFC 8852 §3.1.
        public static let rtpStreamID = "urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id"
        /// RFC 8852 §3.2.
        public static let repairedRTPStreamID = "urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id"
        /// https://webrtc.googlesource.com/src/+/main/docs/native-code/rtp-hdrext/abs-send-time
        public static let absSendTime = "http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time"
        /// RFC 6464.
        public static let audioLevel = "urn:ietf:params:rtp-hdrext:ssrc-audio-level"
        /// draft-holmer-rmcat-transport-wide-cc-extensions-01 §2.
        public static let transportWideCC = "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
    }
}
