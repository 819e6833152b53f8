/// One compressed frame from an encoder, shared by every output of a job. Times are in the
/// stream's time base (video: 1/fps; audio: 1/48000).
public struct EncodedPacket: Sendable, Equatable {
    public enum Stream: Int, Sendable {
        case video = 0
        case audio = 1
    }

    public var stream: Stream
    public var data: [UInt8]
    public var pts: Int64
    public var dts: Int64
    public var duration: Int64
    public var isKeyframe: Bool
    /// A keyframe of the encode's own cadence (every GOP of the timeline), not one forced in
    /// between: where an HLS output may end a short segment to stay on its cadence.
    public var startsGroup: Bool

    public init(stream: Stream, data: [UInt8], pts: Int64, dts: Int64, duration: Int64, isKeyframe: Bool, startsGroup: Bool = false) {
        self.stream = stream
        self.data = data
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
        self.startsGroup = startsGroup
    }
}
