/// H.264's settings for one publication (`VideoCodec.h264(_:)`).
public struct H264Encoding: Sendable, Hashable {
    /// Target bits per second (above 0), passed to x264 as its bitrate.
    public var maxBitrate: Int

    public init(maxBitrate: Int = 3_000_000) {
        self.maxBitrate = maxBitrate
    }
}
