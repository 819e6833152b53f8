import Publisher

/// The camera sent to one participant (`LocalParticipant.publishCamera(to:options:)`), with
/// its own encoder and settings. Its setters change what that participant receives from the
/// next picture on, and no one else's; the call goes on (docs/SDK.md "Publish options").
@MainActor
public final class LocalTrackPublication {
    /// Who it is sent to.
    public let participant: RemoteParticipant
    /// The options it sends with now.
    public private(set) var videoPublishOptions: VideoPublishOptions?
    /// Not used for video publications; kept for the seed's audio half.
    public private(set) var audioPublishOptions: AudioPublishOptions?
    /// False once `unpublish()` ran or the participant left.
    public private(set) var isPublished = true

    /// Its id in the publisher that sends it, and that publisher (both change when the room
    /// reconnects: `moved(to:id:)`).
    private(set) var id: Int
    private weak var publisher: RoomPublisher?

    init(id: Int, participant: RemoteParticipant, options: VideoPublishOptions, publisher: RoomPublisher) {
        self.id = id
        self.participant = participant
        videoPublishOptions = options
        self.publisher = publisher
    }

    /// What it has sent: frames, keyframes, bytes, its encoder's bitrate; nil once unpublished.
    public var statistics: Statistics? {
        guard isPublished, let directed = publisher?.currentStatistics.directed[id] else { return nil }
        return Statistics(codec: directed.codec, ssrc: directed.ssrc, framesEncoded: directed.framesEncoded,
                          keyframesEncoded: directed.keyframesEncoded, framesDropped: directed.framesDropped,
                          bytesSent: directed.bytesSent, bitrate: directed.bitrate)
    }

    /// A publication's counters.
    public struct Statistics: Sendable, Equatable {
        /// The SDP name of the codec: `VP8` or `H264`.
        public var codec: String
        public var ssrc: UInt32
        public var framesEncoded: Int
        public var keyframesEncoded: Int
        /// The camera's frames not sent because of `maxFps`.
        public var framesDropped: Int
        /// RTP payload bytes sent.
        public var bytesSent: Int
        /// The encoder's target, bits per second.
        public var bitrate: Int
    }

    /// Switches the codec, settings included (a VP8 ↔ H.264 switch is a new track for this
    /// participant, which their side shows from its first keyframe).
    public func setCodec(_ codec: VideoCodec) throws(RoomError) {
        var options = try current()
        options.codec = codec
        try apply(options)
    }

    /// Changes the VP8 settings. Throws `codecNotSupported` on an H.264 publication.
    public func setVp8Encoding(_ encoding: Vp8Encoding) throws(RoomError) {
        var options = try current()
        guard options.codec.type == .vp8 else { throw RoomError.codecNotSupported(codec: options.codec.type) }
        options.codec = .vp8(encoding)
        try apply(options)
    }

    /// Changes the H.264 settings. Throws `codecNotSupported` on a VP8 publication.
    public func setH264Encoding(_ encoding: H264Encoding) throws(RoomError) {
        var options = try current()
        guard options.codec.type == .h264 else { throw RoomError.codecNotSupported(codec: options.codec.type) }
        options.codec = .h264(encoding)
        try apply(options)
    }

    /// Changes `maxFps`: 1 to 60.
    public func setMaxFps(_ maxFps: Int) throws(RoomError) {
        var options = try current()
        options.maxFps = maxFps
        try apply(options)
    }

    /// Encodes the next picture for this participant as a keyframe.
    public func requestKeyframe() throws(RoomError) {
        _ = try current()
        publisher?.requestKeyframe(publication: id)
    }

    /// Stops sending to this participant; they get the room's camera again.
    public func unpublish() {
        guard isPublished else { return }
        ended()
        publisher?.unpublishVideo(publication: id)
    }

    /// Sent by a new publisher now, under a new id (after a reconnection).
    func moved(to publisher: RoomPublisher, id: Int) {
        self.publisher = publisher
        self.id = id
    }

    /// Marks it unpublished (its participant left, or the room closed).
    func ended() {
        isPublished = false
    }

    private func current() throws(RoomError) -> VideoPublishOptions {
        guard isPublished, let options = videoPublishOptions, publisher != nil else { throw RoomError.trackNotPublished }
        return options
    }

    private func apply(_ options: VideoPublishOptions) throws(RoomError) {
        let settings = try Self.settings(options)
        videoPublishOptions = options
        publisher?.updateVideo(publication: id, settings: settings)
    }

    /// The publisher's settings for `options`, or the first field out of range.
    static func settings(_ options: VideoPublishOptions) throws(RoomError) -> DirectedVideo {
        let settings = DirectedVideo(codec: options.codec.directed, maxFps: options.maxFps)
        if let problem = settings.problem { throw RoomError.invalidParameter(name: problem.field, reason: problem.reason) }
        return settings
    }
}
