import Media
import Capture

/// Buffer tracks (seed 002, "Your own frames and audio"): pictures an app makes itself, sent as
/// a camera is. Revue's shape on Linux: the track's size and rate are given when it is made,
/// and `push(_:)` hands over each picture.
extension LocalVideoTrack {
    /// A camera track of the app's own pictures, to pass to `enableCam(customCameraTrack:)` or
    /// `createRoom(customCameraTrack:)`. Black until the first `push`.
    public static func createBufferTrack(name: String = "buffer", source: BufferTrackSource = .unknown, width: Int = 1280, height: Int = 720,
                                         frameRate: Int = 30) -> CustomStreamTrack
    {
        let camera = BufferCamera(format: CameraFormat(width: max(2, width & ~1), height: max(2, height & ~1),
                                                       framesPerSecond: min(60, max(1, frameRate))))
        return CustomStreamTrack(kind: .camera, videoTrack: LocalVideoTrack(source: camera), codec: .VP8, multiStream: false,
                                 bufferName: name, bufferSource: source)
    }

    /// Sends `picture` (I420, the track's size) from the next frame on.
    /// - Throws: 3073 for a picture of another size, 3071 when this is not a buffer track.
    public func push(_ picture: VideoFrame) throws(VideoSDKError) {
        guard let buffer = source as? BufferCamera else {
            throw VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("only a buffer track (createBufferTrack) takes pictures")
        }
        do {
            try buffer.push(picture)
        } catch {
            throw VideoSDKError.ERROR_INVALID_PARAMETER.with("\(error)")
        }
    }
}

extension LocalAudioTrack {
    /// A microphone track of the app's own sound (mono 48 kHz, ±1), to pass to
    /// `unmuteMic(customMicrophoneTrack:)`. Silent until samples are pushed; sent unprocessed.
    public static func createBufferTrack(name: String = "buffer") -> CustomStreamTrack {
        CustomStreamTrack(kind: .microphone, audioTrack: LocalAudioTrack(source: BufferMicrophone()), bufferName: name, bufferSource: .unknown)
    }

    /// Adds samples after those pushed before; the room sends them in order, at real time.
    /// - Throws: 3071 when this is not a buffer track.
    public func push(_ samples: [Float]) throws(VideoSDKError) {
        guard let buffer = source as? BufferMicrophone else {
            throw VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("only a buffer track (createBufferTrack) takes samples")
        }
        buffer.push(samples)
    }
}
