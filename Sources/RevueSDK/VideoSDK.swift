import Foundation
import Playout
import Log
import Media
import Capture

/// The SDK's entry point, as the VideoSDK class seed describes it: rooms, permissions, devices,
/// custom tracks and the log level, all static. On Linux the devices are a synthetic camera (a
/// test pattern with the participant's name and a moving square) and a tone microphone, always
/// there, plus the y4m and wav files an app adds; permissions come from a `PermissionProvider`.
public final class VideoSDK: Sendable {
    private init() {}

    static var state: SDKState { SDKState.shared }

    // MARK: Rooms

    /// A room, not joined yet: call `join()` on it. Only `roomId` and `token` are required; the
    /// token itself is checked when joining (docs/SIGNALING.md's join checks).
    /// - Parameter defaultCamera: which way the room's camera points when it opens one itself
    ///   and no camera was chosen (`changeCam`) or selected: the first camera facing that way,
    ///   else the first camera. Nil: the selected camera.
    /// - Parameter signalingURL: the room server's `ws://host:port/v2/rtc` (Revue's addition: a
    ///   self-hosted SDK has no fixed server); nil uses `setSignalingURL(_:)`'s, or
    ///   `REVUE_SIGNALING_URL`, or `ws://127.0.0.1:8080/v2/rtc`.
    /// - Throws: 3073 when `roomId` or `token` is empty.
    public static func createRoom(roomId: String, token: String, participantName: String = "", micEnabled: Bool = true,
                                  camEnabled: Bool = true, participantId: String? = nil, mode: Mode = .SEND_AND_RECV,
                                  customCameraTrack: CustomStreamTrack? = nil, customMicrophoneTrack: CustomStreamTrack? = nil,
                                  defaultCamera: FacingMode? = nil, signalingURL: String? = nil) throws(VideoSDKError) -> Room
    {
        guard !roomId.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("roomId is empty") }
        guard !token.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("token is empty") }
        let settings = Room.Settings(roomId: roomId, token: token, participantName: participantName, participantId: participantId,
                                     micEnabled: micEnabled, camEnabled: camEnabled, mode: mode, customCameraTrack: customCameraTrack,
                                     customMicrophoneTrack: customMicrophoneTrack,
                                     signalingURL: signalingURL ?? state.with { $0.signalingURL }, defaultCamera: defaultCamera)
        return Room(settings: settings, created: true)
    }

    /// The room server rooms join when `createRoom` is given no `signalingURL` (Revue's addition).
    public static func setSignalingURL(_ url: String) {
        state.with { $0.signalingURL = url }
    }

    // MARK: Permissions

    /// Where permissions come from; the default says `.authorized` (a Linux server has nobody
    /// to ask). Revue's addition, so the denied and restricted paths can be taken.
    public static func setPermissionProvider(_ provider: any PermissionProvider) {
        state.with { $0.permissions = provider }
    }

    public static func getPermissionProvider() -> any PermissionProvider {
        state.with { $0.permissions }
    }

    public static func getAudioPermissionStatus() -> AuthorisationStatus {
        getPermissionProvider().status(for: .audio)
    }

    public static func getVideoPermissionStatus() -> AuthorisationStatus {
        getPermissionProvider().status(for: .video)
    }

    /// Asks for microphone access, only while the status is `.notDetermined`; returns before
    /// the answer.
    public static func getAudioPermission() {
        let provider = getPermissionProvider()
        if provider.status(for: .audio) == .notDetermined { provider.request(.audio) }
    }

    /// Asks for camera access, only while the status is `.notDetermined`; returns before the answer.
    public static func getVideoPermission() {
        let provider = getPermissionProvider()
        if provider.status(for: .video) == .notDetermined { provider.request(.video) }
    }

    // MARK: Devices

    public static func getCameras() -> [CameraDeviceInfo] {
        state.with { $0.cameras.map(\.info) }
    }

    /// `Speaker` first, then the microphones, as the seed lists them: the tone, the ALSA capture
    /// devices the machine's configuration lists (looked up at each call, so a device plugged in
    /// since shows), then the files an app added.
    public static func getMics() -> [MicrophoneDeviceInfo] {
        microphones().map(\.info)
    }

    static func microphones() -> [MicrophoneDevice] {
        var listed = state.with { $0.microphones }
        let alsa = ALSADevice.captureDevices().map(MicrophoneDevice.init(alsa:))
        listed.insert(contentsOf: alsa, at: min(2, listed.count))
        return listed
    }

    /// Where `Speaker` plays what a room hears (Revue's, for Linux): an ALSA playback device,
    /// ALSA's `default` unless set; nil plays nothing. Rooms joined after the call use it.
    public static func setSpeakerOutput(_ output: SpeakerOutput?) {
        state.with { $0.speakerOutput = output }
    }

    public static func getSpeakerOutput() -> SpeakerOutput? {
        state.with { $0.speakerOutput }
    }

    /// `getCameras()` followed by `getMics()`.
    public static func getDevices() -> [DeviceInfo] {
        getCameras() + getMics()
    }

    /// The camera the SDK opens by default (the last one a track or `changeCam` chose); nil
    /// when there is none.
    public static func getSelectedVideoDevice() -> CameraDeviceInfo? {
        state.with { fields in fields.cameras.first { $0.info.deviceId == fields.selectedCameraID }?.info }
    }

    /// The microphone in use. The speaker plays beside whichever is chosen (Linux pairs no output
    /// with an input), so it is never `Speaker`.
    public static func getSelectedAudioDevice() -> MicrophoneDeviceInfo? {
        let selected = state.with { $0.selectedMicrophoneID }
        return microphones().first { $0.info.deviceId == selected }?.info
    }

    /// Adds a camera that plays a video file, looped (Revue's addition: Linux has no phone
    /// cameras): a y4m at its own size and rate, or a file Revue's FFmpeg reads (MP4, WebM, MKV,
    /// …) at its own size and 30 fps.
    /// The file is opened when a track is made from it. - Throws: 3073 on an empty path or a
    /// `deviceId` already listed.
    @discardableResult
    public static func addFileCamera(path: String, label: String? = nil, facingMode: FacingMode? = nil) throws(VideoSDKError) -> CameraDeviceInfo {
        guard !path.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("path is empty") }
        let info = CameraDeviceInfo(label: label ?? URL(fileURLWithPath: path).lastPathComponent, deviceId: "file:" + path, facingMode: facingMode)
        try state.modify({ fields throws(VideoSDKError) in
            guard !fields.cameras.contains(where: { $0.info.deviceId == info.deviceId }) else {
                throw VideoSDKError.ERROR_INVALID_PARAMETER.with("\(path) is already a camera")
            }
            fields.cameras.append(CameraDevice(info: info, backing: .file(path: path)))
        })
        return info
    }

    /// Adds a microphone that plays a sound file, looped (Revue's addition): a 48 kHz wav, or a
    /// file Revue's FFmpeg reads (MP3, AAC, Opus, FLAC, a video's sound, …), resampled to mono 48 kHz.
    @discardableResult
    public static func addFileMicrophone(path: String, label: String? = nil) throws(VideoSDKError) -> MicrophoneDeviceInfo {
        guard !path.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("path is empty") }
        let info = MicrophoneDeviceInfo(label: label ?? URL(fileURLWithPath: path).lastPathComponent, deviceId: "file:" + path)
        try state.modify({ fields throws(VideoSDKError) in
            guard !fields.microphones.contains(where: { $0.info.deviceId == info.deviceId }) else {
                throw VideoSDKError.ERROR_INVALID_PARAMETER.with("\(path) is already a microphone")
            }
            fields.microphones.append(MicrophoneDevice(info: info, backing: .file(path: path)))
        })
        return info
    }

    /// Takes away a device `addFileCamera` or `addFileMicrophone` added; the synthetic ones stay.
    public static func removeDevice(deviceId: String) {
        guard deviceId.hasPrefix("file:") else { return }
        state.with { fields in
            fields.cameras.removeAll { $0.info.deviceId == deviceId }
            fields.microphones.removeAll { $0.info.deviceId == deviceId }
            if fields.selectedCameraID == deviceId { fields.selectedCameraID = CameraDevice.testPatternID }
            if fields.selectedMicrophoneID == deviceId { fields.selectedMicrophoneID = MicrophoneDevice.toneID }
        }
    }

    static func camera(_ deviceId: String) -> CameraDevice? {
        state.with { $0.cameras.first { $0.info.deviceId == deviceId } }
    }

    static func microphone(_ deviceId: String) -> MicrophoneDevice? {
        microphones().first { $0.info.deviceId == deviceId }
    }

    // MARK: Custom tracks

    /// A camera track with these settings; the camera opens now (nothing is sent until a room
    /// publishes it). Never asks for permission. `cameraId` decides the camera when set; else
    /// `facingMode`, else the other side's camera.
    /// - Throws: 3017 without camera access, 3071 for an unknown `cameraId`, 3021 with no camera,
    ///   3026 when it cannot be opened.
    public static func createCameraVideoTrack(encoderConfig: CustomCameraTrackConfig? = .h720p_w1280p, facingMode: FacingMode? = .front,
                                              multiStream: Bool? = true, cameraId: String? = nil, maxLayer: EncodingLayer? = .MAX_LAYER_3,
                                              bitrateMode: BitrateMode? = .BALANCED, codec: VideoCodec? = .VP8) async throws(VideoSDKError)
        -> CustomStreamTrack
    {
        // The seed's parameters are optional; nil is the default, as leaving them out is.
        try await makeCameraTrack(encoderConfig: encoderConfig ?? .h720p_w1280p, facingMode: facingMode ?? .front, multiStream: multiStream ?? true,
                            cameraId: cameraId, maxLayer: maxLayer ?? .MAX_LAYER_3, bitrateMode: bitrateMode ?? .BALANCED, codec: codec ?? .VP8,
                            name: "")
    }

    /// The camera track behind `createCameraVideoTrack`, also what a room opens for its default
    /// camera (with the participant's name for the test pattern). The camera opens on a thread
    /// of its own (`DeviceOpening`): its errors in the first `patience` seconds are thrown; one
    /// still opening then is sent as black pictures (`PendingCamera`) until it opens, and a
    /// later failure ends the track (`onEnded`).
    static func makeCameraTrack(encoderConfig: CustomCameraTrackConfig, facingMode: FacingMode, multiStream: Bool, cameraId: String?,
                                maxLayer: EncodingLayer, bitrateMode: BitrateMode, codec: VideoCodec, name: String,
                                patience: Double = DeviceOpening<any CameraSource>.patience) async throws(VideoSDKError)
        -> CustomStreamTrack
    {
        let cameras = state.with { $0.cameras }
        let device: CameraDevice
        if let cameraId {
            guard let match = cameras.first(where: { $0.info.deviceId == cameraId }) else {
                throw VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("no camera has the deviceId \(cameraId)")
            }
            device = match
        } else {
            guard let first = cameras.first(where: { $0.info.facingMode == facingMode }) ?? cameras.first else {
                throw VideoSDKError.ERROR_CAMERA_NOT_FOUND
            }
            device = first
        }
        guard getVideoPermissionStatus() == .authorized else {
            throw VideoSDKError.ERROR_CAMERA_ACCESS_DENIED_OR_DISMISSED.with("camera access is \(getVideoPermissionStatus().rawValue)")
        }
        let opening = DeviceOpening<any CameraSource>(label: device.info.label) { () throws(VideoSDKError) in try device.open(encoderConfig, name: name) }
        let opened = try await opening.wait(upTo: patience)
        let source = opened ?? PendingCamera(format: CameraFormat(width: encoderConfig.width, height: encoderConfig.height,
                                                                  framesPerSecond: encoderConfig.frameRate), opening: opening)
        let track = CustomStreamTrack(kind: .camera, videoTrack: LocalVideoTrack(source: source), codec: codec, facingMode: device.info.facingMode,
                                      encoderConfig: encoderConfig, cameraId: device.info.deviceId, multiStream: multiStream,
                                      maxLayer: multiStream ? maxLayer : nil, bitrateMode: bitrateMode, deviceID: device.info.deviceId)
        if opened == nil { opening.whenFailed { [weak track] error in track?.end(error) } }
        state.with { $0.selectedCameraID = device.info.deviceId }
        state.open(track, device: device.info.deviceId)?.end(nil)
        return track
    }

    /// A microphone track with this profile and processing; the microphone opens now. Never
    /// asks for permission.
    /// - Throws: 3018 without microphone access, 3071 for an unknown `microphoneId` (or the
    ///   `Speaker` output), 3022 with no microphone, 3024 when it cannot be opened.
    public static func createMicrophoneAudioTrack(encoderConfig: CustomMicrophoneTrackConfig? = .speech_standard, microphoneId: String? = nil,
                                                  noiseConfig: NoiseConfig? = nil) async throws(VideoSDKError) -> CustomStreamTrack
    {
        try await makeMicrophoneTrack(encoderConfig: encoderConfig ?? .speech_standard, microphoneId: microphoneId, noiseConfig: noiseConfig)
    }

    /// The microphone track behind `createMicrophoneAudioTrack`, also a room's default one. The
    /// microphone opens as a camera does (`makeCameraTrack`); one still opening sends silence.
    static func makeMicrophoneTrack(encoderConfig: CustomMicrophoneTrackConfig, microphoneId: String?, noiseConfig: NoiseConfig?,
                                    patience: Double = DeviceOpening<any MicrophoneSource>.patience) async throws(VideoSDKError)
        -> CustomStreamTrack
    {
        let device = try microphoneDevice(microphoneId)
        let stereo = encoderConfig.channels == 2
        let opening = DeviceOpening<any MicrophoneSource>(label: device.info.label) { () throws(VideoSDKError) in try device.open(stereo: stereo) }
        let opened = try await opening.wait(upTo: patience)
        let track = microphoneTrack(device, source: opened ?? PendingMicrophone(channels: stereo ? 2 : 1, opening: opening),
                                    encoderConfig: encoderConfig, noiseConfig: noiseConfig)
        if opened == nil {
            opening.whenFailed { [weak track] error in track?.end(error) }
            // A microphone that opened late ends its track when unplugged, as one on time does.
            opening.whenOpened { [weak track] source in
                guard let track else { return }
                watchUnplugging(source, of: track, label: device.info.label)
            }
        }
        return track
    }

    /// The same, with the microphone opened on this thread, for `Room.setAudioDevice`, which the
    /// seed makes synchronous and whose failure it throws.
    static func openMicrophoneTrackNow(encoderConfig: CustomMicrophoneTrackConfig, microphoneId: String?, noiseConfig: NoiseConfig?)
        throws(VideoSDKError) -> CustomStreamTrack
    {
        let device = try microphoneDevice(microphoneId)
        let source = try device.open(stereo: encoderConfig.channels == 2)
        return microphoneTrack(device, source: source, encoderConfig: encoderConfig, noiseConfig: noiseConfig)
    }

    /// The microphone `microphoneId` names, or the selected one.
    /// - Throws: 3071 for an unknown id (or the speaker), 3022 with none, 3018 without access.
    private static func microphoneDevice(_ microphoneId: String?) throws(VideoSDKError) -> MicrophoneDevice {
        let microphones = Self.microphones().filter { !$0.info.isSpeaker }
        let device: MicrophoneDevice
        if let microphoneId {
            guard let match = microphones.first(where: { $0.info.deviceId == microphoneId }) else {
                throw VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG.with("no microphone has the deviceId \(microphoneId)")
            }
            device = match
        } else {
            let selected = state.with { $0.selectedMicrophoneID }
            guard let first = microphones.first(where: { $0.info.deviceId == selected }) ?? microphones.first else {
                throw VideoSDKError.ERROR_MICROPHONE_NOT_FOUND
            }
            device = first
        }
        guard getAudioPermissionStatus() == .authorized else {
            throw VideoSDKError.ERROR_MICROPHONE_ACCESS_DENIED_OR_DISMISSED.with("microphone access is \(getAudioPermissionStatus().rawValue)")
        }
        return device
    }

    /// An unplugged ALSA device ends the track, as a lost microphone does on a phone.
    private static func watchUnplugging(_ source: any MicrophoneSource, of track: CustomStreamTrack, label: String) {
        guard let alsa = source as? ALSAMicrophone else { return }
        alsa.setFailureHandler { [weak track] error in
            track?.end(VideoSDKError.ERROR_CUSTOM_AUDIO_TRACK_ENDED.with("\(label) stopped: \(error)"))
        }
    }

    /// A track of an opened (or opening) microphone, selected and held as the device's track.
    private static func microphoneTrack(_ device: MicrophoneDevice, source: any MicrophoneSource, encoderConfig: CustomMicrophoneTrackConfig,
                                        noiseConfig: NoiseConfig?) -> CustomStreamTrack
    {
        let track = CustomStreamTrack(kind: .microphone, audioTrack: LocalAudioTrack(source: source), microphoneConfig: encoderConfig,
                                      noiseConfig: noiseConfig, microphoneId: device.info.deviceId, deviceID: device.info.deviceId)
        watchUnplugging(source, of: track, label: device.info.label)
        state.with { $0.selectedMicrophoneID = device.info.deviceId }
        state.open(track, device: device.info.deviceId)?.end(nil)
        return track
    }

    /// A screen-share profile for `Room.enableScreenShare`; starts no capture and does not throw.
    /// `withAudio` is accepted and ignored, as on iOS. The screen shared on Linux is synthetic;
    /// `multiStream: true` sends it in three layers (docs/SDK.md).
    public static func createScreenShareVideoTrack(encoderConfig: CustomScreenShareTrackConfig = .h720p_15fps, multiStream: Bool = false,
                                                   withAudio: Bool = false) -> CustomStreamTrack
    {
        CustomStreamTrack(kind: .screenShare, multiStream: multiStream, screenShareConfig: encoderConfig)
    }

    // MARK: End-to-end encryption (docs/E2EE.md)

    /// Sets the provider of the E2EE keys for the next join: its shared key encrypts the whole
    /// room; without one, only participants given a key with `setParticipantKey` encrypt.
    public static func setKeyProvider(_ provider: BaseKeyProvider) {
        state.with { $0.keyProvider = provider }
    }

    /// Turns E2EE off for the next join and forgets the provider.
    public static func removeKeyProvider() {
        state.with { $0.keyProvider = nil }
    }

    public static func getKeyProvider() -> BaseKeyProvider? {
        state.with { $0.keyProvider }
    }

    /// Sets, changes or (with nil) removes one participant's key, in the provider, at once: a
    /// room this client is in encrypts its next frame with the new key. Not used while a
    /// shared key is set.
    /// - Throws: 3073 without a key provider, or for an empty id or key.
    public static func setParticipantKey(_ participantId: String, key: String?) throws(VideoSDKError) {
        guard let provider = getKeyProvider() else {
            throw VideoSDKError.ERROR_INVALID_PARAMETER.with("set a key provider with setKeyProvider() first")
        }
        try provider.setParticipantKey(participantId, key: key)
    }

    // MARK: Logging

    /// How much the SDK logs; `.INFO` before any call and when called without a level.
    public static func setLogLevel(level: LogLevel = .INFO) {
        state.with { $0.logLevel = level }
        LogOutput.shared.configure { configuration in
            configuration.enabled = level != .NONE
            switch level {
            case .NONE, .ERROR: configuration.level = .error
            case .WARN: configuration.level = .warning
            case .INFO: configuration.level = .info
            case .DEBUG, .ALL: configuration.level = .debug
            }
        }
    }

    public static func getLogLevel() -> LogLevel {
        state.with { $0.logLevel }
    }
}
