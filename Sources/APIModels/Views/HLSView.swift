import JobSpec
/// The platform's HLS object: `playbackHlsUrl` is the whole event (`index.m3u8`, seekable),
/// `livestreamUrl` the live window (`live.m3u8`), `downstreamUrl` the deprecated name of the first.
public struct HLSView: Codable, Sendable, Equatable {
    public var common: JobCommonView
    /// The transcript asked for with the job, and its files (docs/TRANSCRIPTION.md); absent when none was.
    public var transcription: TranscriptionView?
    public var start: String
    @NullEncoded public var end: String?
    public var duration: Double
    @NullEncoded public var playbackHlsUrl: String?
    @NullEncoded public var livestreamUrl: String?
    @NullEncoded public var downstreamUrl: String?
    /// The stream with the room's live captions (absent for a stream that has none).
    public var captions: HLSCaptionsView?

    public init(common: JobCommonView, start: String, end: String?, duration: Double, playbackHlsUrl: String?, livestreamUrl: String?) {
        self.common = common
        self.start = start
        self.end = end
        self.duration = duration
        self.playbackHlsUrl = playbackHlsUrl
        self.livestreamUrl = livestreamUrl
        downstreamUrl = playbackHlsUrl
    }

    private enum CodingKeys: String, CodingKey { case start, end, duration, playbackHlsUrl, livestreamUrl, downstreamUrl, transcription, captions }

    public init(from decoder: any Decoder) throws {
        common = try JobCommonView(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(String.self, forKey: .start)
        _end = try container.decode(NullEncoded<String>.self, forKey: .end)
        duration = try container.decode(Double.self, forKey: .duration)
        _playbackHlsUrl = try container.decode(NullEncoded<String>.self, forKey: .playbackHlsUrl)
        _livestreamUrl = try container.decode(NullEncoded<String>.self, forKey: .livestreamUrl)
        _downstreamUrl = try container.decode(NullEncoded<String>.self, forKey: .downstreamUrl)
        transcription = try container.decodeIfPresent(TranscriptionView.self, forKey: .transcription)
        captions = try container.decodeIfPresent(HLSCaptionsView.self, forKey: .captions)
    }

    public func encode(to encoder: any Encoder) throws {
        try common.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(_end, forKey: .end)
        try container.encode(duration, forKey: .duration)
        try container.encode(_playbackHlsUrl, forKey: .playbackHlsUrl)
        try container.encode(_livestreamUrl, forKey: .livestreamUrl)
        try container.encode(_downstreamUrl, forKey: .downstreamUrl)
        try container.encodeIfPresent(transcription, forKey: .transcription)
        try container.encodeIfPresent(captions, forKey: .captions)
    }
}

/// `GET /v2/hls/{roomId}/active`: `{"code": 200, "data": {...}}`.
public struct ActiveHLSView: Codable, Sendable, Equatable {
    public var code: Int
    public var data: HLSView

    public init(data: HLSView) {
        code = 200
        self.data = data
    }
}
