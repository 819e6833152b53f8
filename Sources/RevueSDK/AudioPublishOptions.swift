/// How the microphone is encoded for a publication. `encoding` has no effect yet (the seed's
/// "not supported yet"): the microphone is sent at the room's one Opus bitrate.
public struct AudioPublishOptions: Sendable, Hashable {
    public var encoding: AudioEncoding

    public init(encoding: AudioEncoding = .presetSpeech) {
        self.encoding = encoding
    }
}
