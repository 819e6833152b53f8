import JobSpec
/// Revue's extension of the HLS object: the same stream with the room's live captions as a
/// WebVTT subtitles rendition (docs/TRANSCRIPTION.md). A player opens these multivariant
/// playlists instead of the media playlists to offer the captions.
public struct HLSCaptionsView: Codable, Sendable, Equatable {
    /// `master.m3u8`: the whole event with its captions.
    public var playbackHlsUrl: String
    /// `live_master.m3u8`: the live window with its captions.
    public var livestreamUrl: String
    /// The captions' language (BCP 47).
    public var language: String

    public init(playbackHlsUrl: String, livestreamUrl: String, language: String) {
        self.playbackHlsUrl = playbackHlsUrl
        self.livestreamUrl = livestreamUrl
        self.language = language
    }
}
