/// An audio bitrate for `AudioPublishOptions`. Not supported yet, as the seed says: it does
/// not change what the microphone sends.
public struct AudioEncoding: Sendable, Hashable {
    /// Bits per second.
    public var maxBitrate: Int

    public init(maxBitrate: Int) {
        self.maxBitrate = maxBitrate
    }

    public static let presetSpeech = AudioEncoding(maxBitrate: 24_000)
    public static let presetMusic = AudioEncoding(maxBitrate: 128_000)
    public static let presetMusicHighQuality = AudioEncoding(maxBitrate: 192_000)
}
