import Media
import RoomReceiver

/// The pictures of someone else's camera or screen share as this client decodes them (a remote
/// `Stream`'s `remoteVideoTrack`; an `RTCVideoTrack` to add a renderer to on iOS). On Linux there
/// is no view: an app reads the counters, or sets a frame handler to get each decoded picture.
public final class RemoteVideoTrack: Sendable {
    /// What has arrived and been decoded since the participant's first media in this room.
    public struct Statistics: Sendable, Equatable {
        /// `VP8` or `H264`; nil until the server's offer said.
        public var codec: String?
        /// The SSRC the server sends it on (nil before its offer). It changes when the track
        /// behind the stream does: a publication to this client (`publishCamera(to:)`) in place
        /// of the room's camera, and back.
        public var ssrc: UInt32?
        public var framesDecoded: Int
        /// The size of the last picture decoded (0 before the first).
        public var frameWidth: Int
        public var frameHeight: Int
        /// Whole encoded frames received, and the keyframes among them.
        public var framesReceived: Int
        public var keyframesReceived: Int
        public var packetsReceived: Int
        public var packetsLost: Int
        /// Packets that came again (RTX, RFC 4588) after this client asked for them (NACK), and
        /// so were not lost.
        public var packetsRetransmitted: Int
        public var decodeErrors: Int
        /// Keyframe requests (RTCP PLI) this client sent: one when the track starts, and after loss.
        public var keyframeRequests: Int
        /// Frames of an end-to-end encrypted participant that did not decrypt (no key for
        /// them, or the wrong one): not decoded.
        public var framesUndecryptable: Int
    }

    let track: RemoteTrack

    init(track: RemoteTrack) {
        self.track = track
    }

    public var statistics: Statistics {
        let counted = track.statistics
        return Statistics(codec: counted.codec, ssrc: counted.ssrc, framesDecoded: counted.framesDecoded, frameWidth: counted.frameWidth,
                          frameHeight: counted.frameHeight, framesReceived: counted.framesReceived,
                          keyframesReceived: counted.keyframesReceived, packetsReceived: counted.packetsReceived,
                          packetsLost: counted.packetsLost, packetsRetransmitted: counted.packetsRetransmitted, decodeErrors: counted.decodeErrors, keyframeRequests: counted.keyframeRequests,
                          framesUndecryptable: counted.framesUndecryptable)
    }

    /// Calls `handler` with each decoded picture (I420, `VideoFrame.mediaTime` on the room's
    /// clock), in order, on the SDK's receive thread, not the main actor: keep it short or hand
    /// the picture on. nil stops the calls.
    public func setFrameHandler(_ handler: (@Sendable (VideoFrame) -> Void)?) {
        track.setPictureHandler(handler)
    }
}
