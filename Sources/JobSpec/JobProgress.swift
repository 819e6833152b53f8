/// What a running job last reported.
public struct JobProgress: Sendable, Codable, Equatable {
    public var mediaTime: Double
    public var fps: Double
    public var bitrate: Double
    public var bytes: Int64
    public var framesEncoded: Int64
    public var framesDropped: Int64
    /// Seconds the pipeline is behind real time.
    public var encodeLag: Double

    /// The keys of the progress a job's row keeps as jsonb, which the metrics' SQL reads
    /// (`JobStore.runningTotals`): one name for both.
    public enum CodingKeys: String, CodingKey, Sendable {
        case mediaTime, fps, bitrate, bytes, framesEncoded, framesDropped, encodeLag
    }

    public init(mediaTime: Double = 0, fps: Double = 0, bitrate: Double = 0, bytes: Int64 = 0, framesEncoded: Int64 = 0,
                framesDropped: Int64 = 0, encodeLag: Double = 0)
    {
        self.mediaTime = mediaTime
        self.fps = fps
        self.bitrate = bitrate
        self.bytes = bytes
        self.framesEncoded = framesEncoded
        self.framesDropped = framesDropped
        self.encodeLag = encodeLag
    }
}
