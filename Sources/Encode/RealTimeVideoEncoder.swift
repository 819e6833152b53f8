import Media

/// A publisher's video encoder (`VP8Encoder`, `H264Encoder`): one picture in, at most one frame
/// out at once (no lag, no B-frames), a keyframe when asked (a PLI or FIR), and a target bitrate
/// that can change between pictures (a REMB estimate).
public protocol RealTimeVideoEncoder: AnyObject, Sendable {
    /// The SDP encoding name of what it makes: `VP8`, `H264`.
    var encodingName: String { get }
    /// The target in bits per second now.
    var bitrate: Int { get }
    var framesEncoded: Int { get }
    var keyframesEncoded: Int { get }
    /// Encodes the next picture, of the encoder's size; nil when the encoder made nothing of it.
    func encode(_ picture: VideoFrame, forceKeyframe: Bool) throws(EncodeError) -> EncodedVideoFrame?
    /// Sets the target from the next picture on.
    func setBitrate(_ bitsPerSecond: Int) throws(EncodeError)
}
