import Media

/// Changes the local camera's pictures before they are encoded and sent (seed 004,
/// `Room.setVideoProcessor(processor:)`). On Linux a picture is a `VideoFrame` (I420, the
/// camera's size) where iOS has an `RTCVideoFrame`.
///
/// It is called on the publisher's thread for every picture sent, so it must keep up with the
/// frame rate: at 30 fps it has a little under 33 ms, less what the encoder takes.
public protocol VideoSDKVideoProcessor: AnyObject, Sendable {
    /// The picture to send instead of `frame`; nil sends `frame` as it is. A picture of
    /// another size is not sent (the encoder is set for the camera's): `frame` goes instead.
    func onFrameReceived(_ frame: VideoFrame) -> VideoFrame?
}
