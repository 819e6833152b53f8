import CAudioProcessing

/// WebRTC's audio processing module (Debian's libwebrtc-audio-processing, through the C shim
/// `CAudioProcessing`), on mono 10 ms frames: noise suppression, acoustic echo cancellation
/// (which needs the far-end stream: what the loudspeaker plays), adaptive digital gain control
/// and a high-pass filter. Owns a `revue_apm` (revue_apm_create / revue_apm_destroy).
///
/// It is stateful (noise and echo estimates, the gain), so frames must come in order, one
/// stream per processor.
// @unchecked Sendable: owns a `revue_apm` (WebRTC audio processing), used by one thread at a time (ProcessedMicrophone's lock)
public final class AudioProcessor: @unchecked Sendable {
    /// How hard noise suppression works (webrtc::NoiseSuppression::Level).
    public enum NoiseSuppressionLevel: Int32, Sendable, Equatable {
        case low = 0
        case moderate = 1
        case high = 2
        case veryHigh = 3
    }

    /// Which stages run, named as the seeds' microphone processing flags.
    public struct Settings: Sendable, Equatable {
        public var noiseSuppression: Bool
        public var noiseSuppressionLevel: NoiseSuppressionLevel
        public var echoCancellation: Bool
        public var gainControl: Bool
        /// The level the gain control aims at, in dB below full scale (0–31).
        public var gainTargetDBFS: Int
        public var highPassFilter: Bool

        public init(noiseSuppression: Bool = false, noiseSuppressionLevel: NoiseSuppressionLevel = .high, echoCancellation: Bool = false,
                    gainControl: Bool = false, gainTargetDBFS: Int = 3, highPassFilter: Bool = false)
        {
            self.noiseSuppression = noiseSuppression
            self.noiseSuppressionLevel = noiseSuppressionLevel
            self.echoCancellation = echoCancellation
            self.gainControl = gainControl
            self.gainTargetDBFS = gainTargetDBFS
            self.highPassFilter = highPassFilter
        }

        /// Everything on, as a browser's `getUserMedia` defaults a microphone.
        public static let voice = Settings(noiseSuppression: true, echoCancellation: true, gainControl: true, highPassFilter: true)

        /// Whether any stage runs.
        public var isEmpty: Bool { !noiseSuppression && !echoCancellation && !gainControl && !highPassFilter }
    }

    public let settings: Settings
    public let sampleRate: Int
    /// Samples in one 10 ms frame.
    public let frameSamples: Int
    private let module: OpaquePointer

    public init(settings: Settings, sampleRate: Int = 48_000) throws(AudioProcessingError) {
        var raw = revue_apm_settings(noise_suppression: settings.noiseSuppression ? 1 : 0, noise_suppression_level: settings.noiseSuppressionLevel.rawValue,
                                     echo_cancellation: settings.echoCancellation ? 1 : 0, gain_control: settings.gainControl ? 1 : 0,
                                     gain_target_dbfs: Int32(clamping: settings.gainTargetDBFS), high_pass_filter: settings.highPassFilter ? 1 : 0)
        var message = [CChar](repeating: 0, count: 256)
        guard let module = revue_apm_create(&raw, Int32(clamping: sampleRate), &message, message.count) else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw AudioProcessingError(message: text)
        }
        self.module = module
        self.settings = settings
        self.sampleRate = sampleRate
        frameSamples = revue_apm_frame_samples(module)
    }

    deinit {
        revue_apm_destroy(module)
    }

    /// One frame of the far-end stream (AnalyzeReverseStream), before the microphone frame that
    /// may hold its echo.
    public func analyzeFarEnd(_ samples: [Float]) throws(AudioProcessingError) {
        guard samples.count == frameSamples else { throw AudioProcessingError(message: "a far-end frame of \(samples.count) samples, not \(frameSamples)") }
        let result = samples.withUnsafeBufferPointer { revue_apm_analyze_far_end(module, $0.baseAddress) }
        guard result == 0 else { throw AudioProcessingError(message: "AnalyzeReverseStream: error \(result)") }
    }

    /// One microphone frame, processed in place (ProcessStream). `echoDelayMilliseconds`: from a
    /// far-end frame's analysis to its echo in the microphone.
    public func process(_ samples: inout [Float], echoDelayMilliseconds: Int = 0) throws(AudioProcessingError) {
        guard samples.count == frameSamples else { throw AudioProcessingError(message: "a frame of \(samples.count) samples, not \(frameSamples)") }
        let result = samples.withUnsafeMutableBufferPointer { revue_apm_process(module, $0.baseAddress, Int32(clamping: echoDelayMilliseconds)) }
        guard result == 0 else { throw AudioProcessingError(message: "ProcessStream: error \(result)") }
    }

    /// Whether the echo canceller found echo in the last frame.
    public var lastFrameHadEcho: Bool { revue_apm_stream_has_echo(module) != 0 }
}
