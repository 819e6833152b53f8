/// One whole encoded video frame as a receiver got it from the jitter buffer, before decoding:
/// what `RemoteTrack.setFrameObserver(_:)` is given, so an app or a test can see the stream the
/// sender sent (its frame sizes, keyframes and temporal layers) whether or not it decodes.
public struct ReceivedVideoFrame: Sendable, Equatable {
    /// The frame's RTP timestamp (90 kHz for video), unwrapped: it carries on past 2^32 rather
    /// than wrapping, from the stream's first timestamp.
    public var rtpTimestamp: Int64
    /// When the receiver had the whole frame, in seconds on the receiver's own monotonic clock
    /// (0 when the receiver started): the arrival of its last packet, or a little later when it
    /// waited in the jitter buffer behind an earlier frame's missing packet.
    public var arrivalTime: Double
    /// The frame's size in bytes as received: after end-to-end decryption, if the sender
    /// encrypts, and before decoding; RTP and payload headers not counted.
    public var size: Int
    /// A picture a decoder can start at (VP8's P=0, an H.264 IDR).
    public var isKeyframe: Bool
    /// The TID of the frame's VP8 payload descriptor (RFC 7741 §4.2); nil when it has none (a
    /// sender without temporal layers, H.264).
    public var temporalLayerID: UInt8?
    /// The descriptor's Y bit: the frame depends on base-layer frames only. False without a TID.
    public var layerSync: Bool

    public init(rtpTimestamp: Int64, arrivalTime: Double, size: Int, isKeyframe: Bool, temporalLayerID: UInt8? = nil, layerSync: Bool = false) {
        self.rtpTimestamp = rtpTimestamp
        self.arrivalTime = arrivalTime
        self.size = size
        self.isKeyframe = isKeyframe
        self.temporalLayerID = temporalLayerID
        self.layerSync = layerSync
    }
}
