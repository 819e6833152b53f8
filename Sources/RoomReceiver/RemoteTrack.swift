import Media
import Signaling
import Synchronization

/// What this client receives of one remote participant's microphone, camera or screen share
/// (`RoomPublisher.remoteTrack(participantID:kind:)`): counters of what arrived and was decoded,
/// and handlers an owner sets to get the decoded pictures and sound. There is no renderer on
/// Linux, so this is how an app (a bot, a test, a transcriber) sees and hears the others.
///
/// One object per participant and kind for as long as the participant is in the room: a stream
/// turned off and on again (the same SSRC, or a new one after a new offer) carries on counting.
/// The receiver's thread writes it and calls the handlers; any thread reads it.
public final class RemoteTrack: Sendable {
    /// What has arrived so far. Video fields stay zero for audio and the other way round.
    public struct Statistics: Sendable, Equatable {
        /// The SSRC the latest subscriber offer gave the track; nil before one did.
        public var ssrc: UInt32?
        /// The SDP name of its codec (`VP8`, `H264`, `opus`); nil before an offer.
        public var codec: String?
        /// RTP packets received, and declared lost by the jitter buffer.
        public var packetsReceived = 0
        public var packetsLost = 0
        /// Packets that came again on the track's RTX stream (RFC 4588) after this client's NACK,
        /// and so were not lost.
        public var packetsRetransmitted = 0
        /// Whole encoded frames the jitter buffer released to the decoder.
        public var framesReceived = 0
        public var framesDecoded = 0
        public var keyframesReceived = 0
        /// The size of the last picture decoded.
        public var frameWidth = 0
        public var frameHeight = 0
        /// Frames the decoder refused (it then waits for a keyframe, which is asked for).
        public var decodeErrors = 0
        /// Keyframe requests (RTCP PLI) sent for the track.
        public var keyframeRequests = 0
        /// 48 kHz samples per channel that came out of Opus, and those of them that concealment
        /// made up for lost packets.
        public var samplesDecoded = 0
        public var samplesConcealed = 0
        /// Frames of an end-to-end encrypted participant that did not decrypt (no key for them,
        /// or the wrong one): not decoded, so nothing undecodable is shown (docs/E2EE.md).
        public var framesUndecryptable = 0

        public init() {}
    }

    public let participantID: String
    public let kind: StreamKind
    /// The counters and the handlers; handlers are called outside the lock, so one may read
    /// the statistics.
    private struct State {
        var counts = Statistics()
        var pictureHandler: (@Sendable (VideoFrame) -> Void)?
        var soundHandler: (@Sendable (AudioChunk) -> Void)?
        /// The speaker's tap, beside the app's handler.
        var playoutHandler: (@Sendable (AudioChunk) -> Void)?
        var frameObserver: (@Sendable (ReceivedVideoFrame) -> Void)?
    }
    private let state = Mutex(State())

    init(participantID: String, kind: StreamKind) {
        self.participantID = participantID
        self.kind = kind
    }

    /// A copy of the counters.
    public var statistics: Statistics { state.withLock { $0.counts } }

    /// Called on the receiver's thread with each decoded picture (I420), in order; nil stops
    /// it. Keep it short: the next packets wait while it runs.
    public func setPictureHandler(_ handler: (@Sendable (VideoFrame) -> Void)?) {
        state.withLock { $0.pictureHandler = handler }
    }

    /// Called on the receiver's thread with each decoded (or concealed) piece of sound, 48 kHz,
    /// in order; nil stops it.
    public func setSoundHandler(_ handler: (@Sendable (AudioChunk) -> Void)?) {
        state.withLock { $0.soundHandler = handler }
    }

    /// Like `setSoundHandler`, for the client's speaker: it hears the sound whatever handler the
    /// app sets. nil stops it.
    public func setPlayoutHandler(_ handler: (@Sendable (AudioChunk) -> Void)?) {
        state.withLock { $0.playoutHandler = handler }
    }

    /// Called on the receiver's thread with each whole video frame the jitter buffer releases,
    /// in decode order, before it is decoded and whether or not it then decodes; nil stops it.
    /// Frames that do not decrypt are not given (they are counted in `framesUndecryptable`).
    public func setFrameObserver(_ observer: (@Sendable (ReceivedVideoFrame) -> Void)?) {
        state.withLock { $0.frameObserver = observer }
    }

    /// Hands a received frame to the observer, outside the lock.
    func observe(_ frame: ReceivedVideoFrame) {
        guard let observer = state.withLock({ $0.frameObserver }) else { return }
        observer(frame)
    }

    func update(_ change: (inout Statistics) -> Void) {
        state.withLock { change(&$0.counts) }
    }

    /// Counts decoded pictures and hands them to the handler (outside the lock, so a handler
    /// may read the statistics).
    func deliver(pictures: [VideoFrame]) {
        guard let last = pictures.last else { return }
        let handler = state.withLock {
            $0.counts.framesDecoded += pictures.count
            $0.counts.frameWidth = last.width
            $0.counts.frameHeight = last.height
            return $0.pictureHandler
        }
        if let handler { for picture in pictures { handler(picture) } }
    }

    /// Hands decoded sound to the handler; the decoder's own counters are copied by the caller.
    func deliver(sound: [AudioChunk]) {
        guard !sound.isEmpty else { return }
        let (handler, playout) = state.withLock { ($0.soundHandler, $0.playoutHandler) }
        for chunk in sound {
            playout?(chunk)
            handler?(chunk)
        }
    }
}
