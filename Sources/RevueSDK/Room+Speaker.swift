import Log
import Playout
import RoomReceiver

/// `Speaker`: the room's sound played on an ALSA playback device (`VideoSDK.setSpeakerOutput`,
/// ALSA's `default` unless set). Every remote participant's microphone is mixed in while their
/// audio stream is on; the device opens when the room is joined and closes when it is left.
extension Room {
    /// Opens the speaker, if it is not open. Joining calls it and goes on without sound when
    /// the device does not open (a machine without a sound card); `setAudioDevice(Speaker)`
    /// throws 3068 then.
    func startSpeaker() throws(VideoSDKError) {
        guard speaker == nil else { return }
        guard let output = VideoSDK.getSpeakerOutput() else {
            throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED.with("no speaker output is set (VideoSDK.setSpeakerOutput)")
        }
        do {
            speaker = try SpeakerPlayout(output: output)
        } catch {
            throw VideoSDKError.ERROR_ACTION_NOT_SUPPORTED.with("the speaker \(output.device) could not be opened: \(error)")
        }
        // Those already heard.
        for participant in participants.values {
            if let remote = participant.stream(of: .AUDIO)?.remoteAudioTrack?.track { play(remote, of: participant.id) }
        }
    }

    /// The speaker at join: sound when it opens, a warning when it does not.
    func startSpeakerIfItOpens() {
        guard VideoSDK.getSpeakerOutput() != nil else { return }
        do throws(VideoSDKError) {
            try startSpeaker()
        } catch {
            Logger(label: "sdk").warning("the room plays no sound", ["error": .string(error.message)])
        }
    }

    /// Mixes a remote microphone in.
    func play(_ remote: RemoteTrack, of participantID: String) {
        guard let speaker else { return }
        remote.setPlayoutHandler(speaker.attach(participantID))
    }

    /// Takes a remote microphone out of the mix.
    func stopPlaying(_ participantID: String, track: RemoteTrack?) {
        track?.setPlayoutHandler(nil)
        speaker?.detach(participantID)
    }

    func stopSpeaker() {
        for participant in participants.values { participant.stream(of: .AUDIO)?.remoteAudioTrack?.track.setPlayoutHandler(nil) }
        speaker?.stop()
        speaker = nil
    }
}

/// Where `Speaker` plays (`VideoSDK.setSpeakerOutput`): an ALSA playback device by name, and
/// optionally its definition in ALSA's configuration syntax.
public typealias SpeakerOutput = SpeakerPlayout.Output
