/// One RTMP destination of a livestream (`startLivestream(outputs:)`).
public struct LivestreamOutput: Sendable, Hashable {
    public var url: String
    public var streamKey: String

    public init(url: String, streamKey: String) {
        self.url = url
        self.streamKey = streamKey
    }
}
