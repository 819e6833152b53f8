import CALSA
import Capture

/// One open ALSA playback PCM (`snd_pcm_t`), mono 16-bit 48 kHz, interleaved, closed in deinit.
/// ALSA converts and resamples to what the device takes (`snd_pcm_set_params` with soft
/// resampling). Writes never block (the PCM is non-blocking): `SpeakerPlayout` paces them by its
/// own clock, and asks how much room the device has. Used by one thread: the playout thread.
// @unchecked Sendable: owns an ALSA playback PCM (`snd_pcm_t`), used by one thread at a time (SpeakerPlayout's thread)
final class ALSAPlaybackPCM: @unchecked Sendable {
    static let sampleRate = 48_000

    let device: String
    private var pcm: OpaquePointer?

    /// Opens `device` (`default`, `plughw:0,0`, `pulse`, a name from the ALSA configuration) for
    /// playback, with `bufferMicroseconds` of buffer. `configuration`, in ALSA's configuration
    /// syntax, defines the device instead of the system's and the user's files.
    init(device: String, configuration: String? = nil, bufferMicroseconds: UInt32) throws(ALSAError) {
        self.device = device
        let opened = try ALSAPCMOpening.open(device, configuration: configuration, stream: SND_PCM_STREAM_PLAYBACK, mode: SND_PCM_NONBLOCK,
                                             purpose: "playback")
        let status = snd_pcm_set_params(opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(Self.sampleRate), 1, bufferMicroseconds)
        guard status >= 0 else {
            snd_pcm_close(opened)
            throw ALSAError(device: device, operation: "setting mono 16-bit 48 kHz", code: status)
        }
        pcm = opened
    }

    deinit {
        if let pcm {
            snd_pcm_drop(pcm)
            snd_pcm_close(pcm)
        }
    }

    /// How many samples the device takes now without waiting (an underrun is recovered from).
    func room() throws(ALSAError) -> Int {
        guard let pcm else { return 0 }
        let available = snd_pcm_avail_update(pcm)
        if available >= 0 { return Int(available) }
        try recover(Int32(truncatingIfNeeded: available), operation: "asking for room")
        return Int(max(0, snd_pcm_avail_update(pcm)))
    }

    /// Writes what the device takes of `samples` now; returns how many it took. An underrun (the
    /// device ran dry) is recovered from and the write tried once more.
    @discardableResult
    func write(_ samples: [Int16]) throws(ALSAError) -> Int {
        guard let pcm, !samples.isEmpty else { return 0 }
        var written = samples.withUnsafeBufferPointer { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t($0.count)) }
        if written == -Int(EAGAIN) { return 0 }
        if written < 0 {
            try recover(Int32(truncatingIfNeeded: written), operation: "writing sound")
            written = samples.withUnsafeBufferPointer { snd_pcm_writei(pcm, $0.baseAddress, snd_pcm_uframes_t($0.count)) }
            if written < 0 { return 0 }
        }
        return Int(written)
    }

    /// An underrun or a suspended device is prepared again; anything else is an error.
    private func recover(_ status: Int32, operation: String) throws(ALSAError) {
        guard let pcm, snd_pcm_recover(pcm, status, 1) >= 0 else { throw ALSAError(device: device, operation: operation, code: status) }
    }
}
