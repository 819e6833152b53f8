import Media

/// Where a publisher's pictures come from: a synthetic test pattern, a y4m file, and later the
/// SDK's camera (`VideoSDK.createCameraVideoTrack()` in the seeds). Pictures are asked for by
/// frame number, so a publisher that fell behind skips frames without the source noticing, and
/// a capture made offline gets the same pictures a live run sends.
public protocol CameraSource: AnyObject, Sendable {
    var format: CameraFormat { get }
    /// The picture of frame `index`, shown `index / framesPerSecond` seconds after the start.
    func frame(_ index: Int) -> VideoFrame
}

/// A camera's size and rate, named as the seeds' `CustomCameraTrackConfig` names them.
public struct CameraFormat: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var framesPerSecond: Int

    public init(width: Int, height: Int, framesPerSecond: Int = 30) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
    }

    public static let h360p_w640p = CameraFormat(width: 640, height: 360)
    public static let h720p_w1280p = CameraFormat(width: 1280, height: 720)

    /// A VP8 bitrate for the size at 30 fps, near what browsers send for a camera of that size.
    public var defaultBitrate: Int {
        let pixels = width * height
        if pixels <= 320 * 180 { return 200_000 }
        if pixels <= 640 * 360 { return 600_000 }
        if pixels <= 1280 * 720 { return 1_500_000 }
        return 2_500_000
    }

    public var description: String { "\(width)x\(height)@\(framesPerSecond)" }
}
