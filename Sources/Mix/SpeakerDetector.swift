import Foundation

/// Finds the active speaker from decoded audio, for the layout. The same detector serves
/// fixtures and live rooms; manifest or signalling `activeSpeaker` events override it.
///
/// - Level: RMS of each block in dBFS, smoothed with a fast attack and a slow release.
/// - Speaking: above `onThreshold`; it stops only below `offThreshold` (hysteresis).
/// - Switching: another participant becomes the active speaker when they have been the loudest
///   speaker for `switchDelay`, and the current one has held the role for `minimumHold` or has
///   stopped speaking. So one cough does not move the layout, and two people talking over each
///   other do not make it flap.
public struct SpeakerDetector: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var onThreshold: Double = -42
        public var offThreshold: Double = -52
        public var attack: Double = 0.05
        public var releaseTime: Double = 0.4
        public var switchDelay: Double = 0.3
        public var minimumHold: Double = 1.0

        public init() {}
    }

    struct Voice: Sendable {
        var level: Double = -120
        var speaking = false
        var loudestSince: Double?
    }

    public let configuration: Configuration
    private var voices: [String: Voice] = [:]
    public private(set) var activeSpeaker: String?
    private var activeSince: Double = -.infinity
    /// When each participant last spoke (media time), for SPEAKER ordering.
    public private(set) var lastSpoke: [String: Double] = [:]
    /// Set once an external event decided the speaker; detection no longer changes it.
    public private(set) var overridden = false

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds one block of a participant's audio (interleaved stereo or mono; only the level
    /// matters) ending at media time `time`, lasting `duration` seconds.
    public mutating func observe(participant: String, samples: ArraySlice<Float>, duration: Double, at time: Double) {
        var voice = voices[participant] ?? Voice()
        var sum: Double = 0
        for sample in samples { sum += Double(sample) * Double(sample) }
        let rms = samples.isEmpty ? 0 : (sum / Double(samples.count)).squareRoot()
        let level = rms > 1e-6 ? 20 * log10(rms) : -120
        let coefficient = level > voice.level ? min(1, duration / configuration.attack) : min(1, duration / configuration.releaseTime)
        voice.level += (level - voice.level) * coefficient
        if voice.speaking {
            if voice.level < configuration.offThreshold { voice.speaking = false }
        } else if voice.level > configuration.onThreshold {
            voice.speaking = true
        }
        if voice.speaking { lastSpoke[participant] = time }
        voices[participant] = voice
    }

    /// Decides who the active speaker is at `time`, after the blocks up to it were observed.
    public mutating func update(at time: Double) {
        guard !overridden else { return }
        let loudest = voices.filter(\.value.speaking).max { $0.value.level < $1.value.level }?.key
        for id in voices.keys {
            if id == loudest {
                if voices[id]?.loudestSince == nil { voices[id]?.loudestSince = time }
            } else {
                voices[id]?.loudestSince = nil
            }
        }
        guard let candidate = loudest, candidate != activeSpeaker else { return }
        let currentStillSpeaking = activeSpeaker.flatMap { voices[$0]?.speaking } ?? false
        let candidateFor = time - (voices[candidate]?.loudestSince ?? time)
        if activeSpeaker == nil || (candidateFor >= configuration.switchDelay
            && (!currentStillSpeaking || time - activeSince >= configuration.minimumHold))
        {
            activeSpeaker = candidate
            activeSince = time
        }
    }

    /// An external event (manifest `activeSpeaker`, room signalling) names the speaker. From
    /// then on, events decide.
    public mutating func override(speaker: String, at time: Double) {
        overridden = true
        activeSpeaker = speaker
        activeSince = time
        lastSpoke[speaker] = time
    }

    /// A participant left.
    public mutating func remove(participant: String) {
        voices[participant] = nil
        lastSpoke[participant] = nil
        if activeSpeaker == participant { activeSpeaker = nil }
    }

    /// The smoothed level of a participant, in dBFS.
    public func level(of participant: String) -> Double? { voices[participant]?.level }
}
