import Media
import RoomReceiver

/// The sound of someone else's microphone as this client decodes it (a remote `Stream`'s
/// `remoteAudioTrack`). The SDK plays it on the speaker (`Speaker`, `VideoSDK.setSpeakerOutput`);
/// an app also reads the counters, or sets a sample handler to get the decoded sound.
public final class RemoteAudioTrack: Sendable {
    /// What has arrived and been decoded since the participant's first media in this room.
    public struct Statistics: Sendable, Equatable {
        /// `opus`; nil until the server's offer said.
        public var codec: String?
        /// 48 kHz samples per channel decoded from the packets that came.
        public var samplesDecoded: Int
        /// Samples Opus made up for packets that did not come (not in `samplesDecoded`).
        public var samplesConcealed: Int
        /// Opus packets received.
        public var framesReceived: Int
        public var packetsReceived: Int
        public var packetsLost: Int
        public var decodeErrors: Int
    }

    let track: RemoteTrack

    init(track: RemoteTrack) {
        self.track = track
    }

    public var statistics: Statistics {
        let counted = track.statistics
        return Statistics(codec: counted.codec, samplesDecoded: counted.samplesDecoded,
                          samplesConcealed: counted.samplesConcealed, framesReceived: counted.framesReceived,
                          packetsReceived: counted.packetsReceived, packetsLost: counted.packetsLost, decodeErrors: counted.decodeErrors)
    }

    /// Calls `handler` with each piece of decoded sound (48 kHz, interleaved when stereo,
    /// `AudioChunk.isConcealed` for made-up sound), in order, on the SDK's receive thread, not
    /// the main actor. nil stops the calls.
    public func setSampleHandler(_ handler: (@Sendable (AudioChunk) -> Void)?) {
        track.setSoundHandler(handler)
    }
}
