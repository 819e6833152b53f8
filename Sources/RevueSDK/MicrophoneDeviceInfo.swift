/// An audio device, listed by `VideoSDK.getMics()`: `Speaker` (the output the seeds list first:
/// the rooms' sound on an ALSA playback device, `VideoSDK.setSpeakerOutput`), the synthetic tone, the ALSA
/// capture devices (`alsa:NAME`) and the file microphones an app added with
/// `VideoSDK.addFileMicrophone(path:label:)`.
// @unchecked Sendable: immutable after init but a subclass of `DeviceInfo`, a non-final class the compiler cannot check
public final class MicrophoneDeviceInfo: DeviceInfo, @unchecked Sendable {
    /// The `deviceId` of the loudspeaker entry, as the seeds spell it.
    public static let speakerID = "Speaker"

    init(label: String, deviceId: String) {
        super.init(label: label, kind: .audio, deviceId: deviceId)
    }

    /// Whether this is the `Speaker` output rather than a microphone.
    public var isSpeaker: Bool { deviceId == Self.speakerID }
}
