import CALSA
import Foundation

/// One open ALSA capture PCM (`snd_pcm_t`), mono 16-bit 48 kHz, interleaved, closed by `close()`
/// or in deinit. ALSA converts and resamples what the device has (`snd_pcm_set_params` with soft
/// resampling), as browsers ask it to. Used by one thread at a time: `ALSAMicrophone`'s capture
/// thread, once it is opened.
// @unchecked Sendable: owns an ALSA capture PCM (`snd_pcm_t`), used by one thread at a time (ALSAMicrophone's capture thread)
final class ALSACapturePCM: @unchecked Sendable {
    static let sampleRate = 48_000
    /// How much the device buffers (snd_pcm_set_params's latency: ALSA makes four periods of it).
    static let bufferMicroseconds: UInt32 = 80_000

    let device: String
    private var pcm: OpaquePointer?

    /// Opens `device` (`default`, `plughw:1,0`, `pulse`, a name from the ALSA configuration) for
    /// capture. `configuration`, in ALSA's configuration syntax, defines the device instead of
    /// the system's and the user's files (`~/.asoundrc`): for devices an app describes itself.
    init(device: String, configuration: String? = nil) throws(ALSAError) {
        self.device = device
        let opened = try ALSAPCMOpening.open(device, configuration: configuration, stream: SND_PCM_STREAM_CAPTURE, mode: 0, purpose: "capture")
        var status = snd_pcm_set_params(opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(Self.sampleRate), 1,
                                    Self.bufferMicroseconds)
        guard status >= 0 else {
            snd_pcm_close(opened)
            throw ALSAError(device: device, operation: "setting mono 16-bit 48 kHz", code: status)
        }
        // A prepared capture stream is not ready to poll until it runs: start it now, so the
        // first wait has something to wait for.
        status = snd_pcm_start(opened)
        guard status >= 0 else {
            snd_pcm_close(opened)
            throw ALSAError(device: device, operation: "starting capture", code: status)
        }
        pcm = opened
    }

    deinit {
        close()
    }

    /// Closes the device (once), so another can open it.
    func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
    }

    /// Waits up to `milliseconds` for sound to read: false when none came (a stalled device).
    func wait(milliseconds: Int32) throws(ALSAError) -> Bool {
        guard let pcm else { throw ALSAError(device: device, operation: "waiting for sound", code: -EBADFD) }
        let status = snd_pcm_wait(pcm, milliseconds)
        if status >= 0 { return status > 0 }
        try recover(status, operation: "waiting for sound")
        return true
    }

    /// Reads up to `buffer.count` samples; an overrun (the reader fell behind) is recovered from
    /// and reads nothing. Returns how many were read.
    func read(into buffer: inout [Int16]) throws(ALSAError) -> Int {
        guard let pcm else { throw ALSAError(device: device, operation: "reading", code: -EBADFD) }
        let count = buffer.count
        let status = buffer.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(count)) }
        if status >= 0 { return Int(status) }
        try recover(Int32(status), operation: "reading")
        return 0
    }

    /// Overruns and suspends are recovered from (`snd_pcm_recover`, which leaves the stream
    /// prepared: it is started again); anything else (the device was unplugged) is the end.
    /// Returns after an overrun, so the reader can count it.
    private func recover(_ status: Int32, operation: String) throws(ALSAError) {
        guard let pcm, status == -EPIPE || status == -ESTRPIPE || status == -EINTR, snd_pcm_recover(pcm, status, 1) >= 0 else {
            throw ALSAError(device: device, operation: operation, code: status)
        }
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED { snd_pcm_start(pcm) }
        overruns += 1
    }

    /// Overruns and suspends recovered from.
    private(set) var overruns = 0
}
