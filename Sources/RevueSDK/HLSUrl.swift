/// Where an HLS stream plays (`onHlsStateChanged`): the playlist URLs the server sent.
public struct HLSUrl: Sendable, Hashable {
    public var playbackHlsUrl: String?
    public var livestreamUrl: String?

    public init(playbackHlsUrl: String? = nil, livestreamUrl: String? = nil) {
        self.playbackHlsUrl = playbackHlsUrl
        self.livestreamUrl = livestreamUrl
    }
}
