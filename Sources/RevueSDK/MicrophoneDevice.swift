import RoomClient

/// A microphone the SDK can open: what `getMics()` lists and what opening it makes.
struct MicrophoneDevice: Sendable {
    enum Backing: Sendable {
        /// The loudspeaker entry the seeds list first; nothing to open.
        case speaker
        /// `ToneMicrophone` at this frequency.
        case tone(frequency: Double)
        /// `WAVFileMicrophone`: a 48 kHz wav, looped.
        case wavFile(path: String)
    }

    let info: MicrophoneDeviceInfo
    let backing: Backing

    static let toneID = "revue-tone"
    static let speaker = MicrophoneDevice(info: MicrophoneDeviceInfo(label: "Speaker", deviceId: MicrophoneDeviceInfo.speakerID), backing: .speaker)
    static let tone = MicrophoneDevice(info: MicrophoneDeviceInfo(label: "Tone Microphone", deviceId: toneID), backing: .tone(frequency: 440))

    /// Opens the microphone. - Throws: 3022 for the speaker (it is an output), 3024 when the
    /// file cannot be read (the nearest the seeds have to a microphone that will not open).
    func open() throws(VideoSDKError) -> any MicrophoneSource {
        switch backing {
        case .speaker:
            throw VideoSDKError.ERROR_MICROPHONE_NOT_FOUND.with("Speaker is an output, not a microphone")
        case .tone(let frequency):
            return ToneMicrophone(frequency: frequency)
        case .wavFile(let path):
            do {
                return try WAVFileMicrophone(path: path)
            } catch {
                throw VideoSDKError.ERROR_MICROPHONE_IN_USE.with("\(info.label) could not be opened: \(error)")
            }
        }
    }
}
