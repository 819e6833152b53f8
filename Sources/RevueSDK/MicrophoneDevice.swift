import Capture

/// A microphone the SDK can open: what `getMics()` lists and what opening it makes.
struct MicrophoneDevice: Sendable {
    enum Backing: Sendable {
        /// The loudspeaker entry the seeds list first; nothing to open.
        case speaker
        /// `ToneMicrophone` at this frequency.
        case tone(frequency: Double)
        /// A file, looped: a 48 kHz wav through `WAVFileMicrophone`, any other sound file
        /// Revue's FFmpeg reads through `MediaFileMicrophone` (resampled to mono 48 kHz).
        case file(path: String)
        /// An ALSA capture device (`ALSAMicrophone`), by the name ALSA opens it by.
        case alsa(name: String)
    }

    let info: MicrophoneDeviceInfo
    let backing: Backing

    static let toneID = "revue-tone"
    static let speaker = MicrophoneDevice(info: MicrophoneDeviceInfo(label: "Speaker", deviceId: MicrophoneDeviceInfo.speakerID), backing: .speaker)
    static let tone = MicrophoneDevice(info: MicrophoneDeviceInfo(label: "Tone Microphone", deviceId: toneID), backing: .tone(frequency: 440))

    /// Opens the microphone. - Throws: 3022 for the speaker (it is an output), 3024 when the
    /// file cannot be read or the device opened (busy, gone, or no mono 48 kHz: the nearest the
    /// seeds have to a microphone that will not open).
    /// `stereo`: a stereo profile's track; a stereo wav is then played as stereo (the others
    /// are mono, and the publisher sends them in both channels).
    func open(stereo: Bool = false) throws(VideoSDKError) -> any MicrophoneSource {
        switch backing {
        case .speaker:
            throw VideoSDKError.ERROR_MICROPHONE_NOT_FOUND.with("Speaker is an output, not a microphone")
        case .tone(let frequency):
            return ToneMicrophone(frequency: frequency)
        case .file(let path):
            do {
                if path.lowercased().hasSuffix(".wav"), let wav = try? WAVFileMicrophone(path: path, stereo: stereo) { return wav }
                return try MediaFileMicrophone(path: path)
            } catch {
                throw VideoSDKError.ERROR_MICROPHONE_IN_USE.with("\(info.label) could not be opened: \(error)")
            }
        case .alsa(let name):
            do {
                return try ALSAMicrophone(device: name)
            } catch {
                throw VideoSDKError.ERROR_MICROPHONE_IN_USE.with("\(info.label) could not be opened: \(error)")
            }
        }
    }
}

extension MicrophoneDevice {
    /// An ALSA capture device as `getMics()` lists it.
    init(alsa device: ALSADevice) {
        self.init(info: MicrophoneDeviceInfo(label: device.description, deviceId: device.id), backing: .alsa(name: device.name))
    }
}
