import Capture
import Synchronization

/// A camera, microphone or screen-share track made by `VideoSDK.createCameraVideoTrack()`,
/// `createMicrophoneAudioTrack()` or `createScreenShareVideoTrack()`, with the settings it was
/// made with. The device is open from creation until the track ends: `stop()`, a newer track
/// for the same device, or a room closing the device (`disableCam()`, `muteMic()`, `leave()`).
public final class CustomStreamTrack: Sendable {
    public enum Kind: String, Sendable, Hashable {
        case camera, microphone, screenShare
    }

    public let kind: Kind
    /// The camera's pictures; nil for a microphone or screen-share track.
    public let videoTrack: LocalVideoTrack?
    /// The microphone's sound; nil for a camera or screen-share track.
    public let audioTrack: LocalAudioTrack?
    public let codec: VideoCodec?
    public let facingMode: FacingMode?
    public let encoderConfig: CustomCameraTrackConfig?
    public let cameraId: String?
    public let multiStream: Bool
    public let maxLayer: EncodingLayer?
    public let bitrateMode: BitrateMode?
    public let microphoneConfig: CustomMicrophoneTrackConfig?
    public let noiseConfig: NoiseConfig?
    public let microphoneId: String?
    public let screenShareConfig: CustomScreenShareTrackConfig?
    /// A buffer track's name and what its pictures are (`createBufferTrack`); nil otherwise.
    public let bufferName: String?
    public let bufferSource: BufferTrackSource?
    /// The device this track opened, for the rule that a newer track ends an older one.
    let deviceID: String?

    private struct State {
        var ended = false
        var endError: VideoSDKError?
        var handler: (@MainActor @Sendable (VideoSDKError?) -> Void)?
        var called = false
        /// How many rooms send from the device: while any does, `stop()` leaves it open.
        var publishers = 0
    }
    private let state = Mutex(State())

    init(kind: Kind, videoTrack: LocalVideoTrack? = nil, audioTrack: LocalAudioTrack? = nil, codec: VideoCodec? = nil, facingMode: FacingMode? = nil,
         encoderConfig: CustomCameraTrackConfig? = nil, cameraId: String? = nil, multiStream: Bool = false, maxLayer: EncodingLayer? = nil,
         bitrateMode: BitrateMode? = nil, microphoneConfig: CustomMicrophoneTrackConfig? = nil, noiseConfig: NoiseConfig? = nil,
         microphoneId: String? = nil, screenShareConfig: CustomScreenShareTrackConfig? = nil, deviceID: String? = nil,
         bufferName: String? = nil, bufferSource: BufferTrackSource? = nil)
    {
        self.bufferName = bufferName
        self.bufferSource = bufferSource
        self.kind = kind
        self.videoTrack = videoTrack
        self.audioTrack = audioTrack
        self.codec = codec
        self.facingMode = facingMode
        self.encoderConfig = encoderConfig
        self.cameraId = cameraId
        self.multiStream = multiStream
        self.maxLayer = maxLayer
        self.bitrateMode = bitrateMode
        self.microphoneConfig = microphoneConfig
        self.noiseConfig = noiseConfig
        self.microphoneId = microphoneId
        self.screenShareConfig = screenShareConfig
        self.deviceID = deviceID
    }

    /// True once the track has ended.
    public var isEnded: Bool { state.withLock { $0.ended } }

    /// Why the track ended, when its device failed (nil while on, or when it was stopped).
    var endError: VideoSDKError? { state.withLock { $0.endError } }

    /// Called once, on the main actor, when the track ends: with the error when the device
    /// failed, nil otherwise. A handler set after the end is called at once (on the main
    /// actor's next turn).
    public var onEnded: (@MainActor @Sendable (VideoSDKError?) -> Void)? {
        get { state.withLock { $0.handler } }
        set {
            let due: (handler: @MainActor @Sendable (VideoSDKError?) -> Void, error: VideoSDKError?)? = state.withLock { state in
                // "Once" is per handler: a new one set after the end is called at once, even if
                // an earlier one was called at the end.
                state.handler = newValue
                state.called = false
                guard state.ended, let newValue else { return nil }
                state.called = true
                return (newValue, state.endError)
            }
            if let due { Self.call(due.handler, due.error) }
        }
    }

    /// The audio processing in effect (a microphone track's profile and `noiseConfig`).
    public var audioProcessing: AudioProcessing? {
        microphoneConfig.map { NoiseConfig.resolved(noiseConfig, for: $0) }
    }

    /// Closes the device the track opened (a preview the user left without joining). While a
    /// room sends from it, the device stays open: `disableCam()`, `muteMic()` or `leave()`
    /// release it.
    public func stop() {
        let sending = state.withLock { $0.publishers > 0 }
        guard !sending else { return }
        end(nil)
    }

    /// Ends the track (once): the device is closed, `onEnded` is called.
    func end(_ error: VideoSDKError?) {
        (audioTrack?.source as? ALSAMicrophone)?.stop()
        (audioTrack?.source as? PendingMicrophone)?.opening.whenOpened { ($0 as? ALSAMicrophone)?.stop() }
        let due: (@MainActor @Sendable (VideoSDKError?) -> Void)? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            state.endError = error
            guard let handler = state.handler, !state.called else { return nil }
            state.called = true
            return handler
        }
        if let due { Self.call(due, error) }
    }

    /// A room starts (true) or stops (false) sending from the device.
    func publishing(_ on: Bool) {
        state.withLock { $0.publishers = max(0, $0.publishers + (on ? 1 : -1)) }
    }

    private static func call(_ handler: @escaping @MainActor @Sendable (VideoSDKError?) -> Void, _ error: VideoSDKError?) {
        Task { @MainActor in handler(error) }
    }
}
