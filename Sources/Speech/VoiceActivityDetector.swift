import Foundation

/// Cuts one speaker's audio into utterances: 16 kHz mono samples in, utterances out.
///
/// Sans-IO, and its clock is the samples it has been fed, so the same stream always cuts the same
/// way (live or from a file). A frame is speech when its level stands `margin` dB above the
/// noise floor and above `quietest`. The floor is the quietest frame of the last ten seconds
/// (minimum statistics): a steady hum, fan or hiss becomes the floor within ten seconds, while
/// speech, which pauses between phrases, does not; an utterance starts after `startFrames` speech
/// frames (with `preRoll` of what came before, so a soft first consonant is kept) and ends after
/// `endSilence` without speech (keeping `postRoll`). One longer than `longest` is cut at its
/// quietest frame of the last two seconds. Memory is bounded by `longest`.
public struct VoiceActivityDetector: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var margin: Float = 10
        public var quietest: Float = -48
        public var startFrames = 3
        public var endSilence = 0.5
        public var preRoll = 0.25
        public var postRoll = 0.2
        public var shortest = 0.2
        public var longest = 25.0

        public init() {}
    }

    /// 20 ms frames.
    static let frameSamples = Utterance.sampleRate / 50

    public let configuration: Configuration
    /// Seconds on the caller's clock of the first sample fed.
    public let origin: Double
    private var fed = 0
    private var partial: [Float] = []
    /// Frame levels of the last `floorFrames` frames, oldest first, starting as half a second
    /// of assumed quiet so that speech from the first sample is heard.
    private var recentLevels: [Float] = Array(repeating: -60, count: 25)
    private var floor: Float = -60
    static let floorFrames = 500
    private var history: [Float] = []
    /// The utterance being collected, its first sample's index, and the frames of it since speech.
    private var current: [Float]?
    private var currentStart = 0
    /// Samples of pre-roll at the start of `current` (0 after a long utterance was cut: what
    /// follows the cut is speech).
    private var currentOnset = 0
    private var speechRun = 0
    private var silentFrames = 0
    private var speechFrames = 0
    private var frameLevels: [Float] = []

    public init(origin: Double = 0, configuration: Configuration = Configuration()) {
        self.origin = origin
        self.configuration = configuration
    }

    /// Whether an utterance is being collected (someone is speaking).
    public var isSpeaking: Bool { current != nil }

    /// Feeds samples; returns the utterances they complete.
    public mutating func feed(_ samples: [Float]) -> [Utterance] {
        var done: [Utterance] = []
        partial += samples
        var offset = 0
        while partial.count - offset >= Self.frameSamples {
            let frame = Array(partial[offset..<(offset + Self.frameSamples)])
            offset += Self.frameSamples
            if let utterance = take(frame) { done.append(utterance) }
        }
        partial.removeFirst(offset)
        return done
    }

    /// Ends the stream: the utterance in progress, if it holds enough speech.
    /// `droppingLast` seconds at its end are left out of the utterance (silence fed for audio
    /// that then came late, `SpeakerStream`).
    public mutating func flush(droppingLast seconds: Double = 0) -> [Utterance] {
        defer { partial = [] }
        guard current != nil else { return [] }
        return finish(trimming: max(0, Int(seconds * Double(Utterance.sampleRate)) - partial.count)).map { [$0] } ?? []
    }

    private mutating func take(_ frame: [Float]) -> Utterance? {
        let frameStart = fed
        fed += frame.count
        let level = Self.level(frame)
        let threshold = max(floor + configuration.margin, configuration.quietest)
        // Once speaking, a frame a little under the threshold still counts (hysteresis).
        let isSpeech = level > (current == nil ? threshold : threshold - 4)
        recentLevels.append(level)
        if recentLevels.count > Self.floorFrames { recentLevels.removeFirst(recentLevels.count - Self.floorFrames) }
        floor = recentLevels.min() ?? -60
        var completed: Utterance?
        if current == nil {
            history += frame
            let keep = Int(configuration.preRoll * Double(Utterance.sampleRate)) + frame.count
            if history.count > keep { history.removeFirst(history.count - keep) }
            speechRun = isSpeech ? speechRun + 1 : 0
            if speechRun >= configuration.startFrames {
                current = history
                currentStart = frameStart + frame.count - history.count
                // The speech run is the last frames of the history; before it is pre-roll.
                currentOnset = max(0, history.count - speechRun * frame.count)
                frameLevels = Array(repeating: -100, count: history.count / Self.frameSamples)
                speechFrames = speechRun
                silentFrames = 0
                history = []
                speechRun = 0
            }
            return nil
        }
        current? += frame
        frameLevels.append(level)
        if isSpeech {
            speechFrames += 1
            silentFrames = 0
        } else {
            silentFrames += 1
        }
        let endFrames = Int(configuration.endSilence * 50)
        if silentFrames >= endFrames {
            let trim = max(0, silentFrames - Int(configuration.postRoll * 50)) * Self.frameSamples
            completed = finish(trimming: trim)
        } else if let collected = current, Double(collected.count) >= configuration.longest * Double(Utterance.sampleRate) {
            completed = cutLongUtterance()
        }
        return completed
    }

    /// Cuts an utterance that reached `longest` at its quietest frame of the last two seconds;
    /// what follows the cut starts the next one.
    private mutating func cutLongUtterance() -> Utterance? {
        guard let collected = current else { return nil }
        let window = min(frameLevels.count, 100)
        let searchStart = frameLevels.count - window
        var quietest = frameLevels.count - 1
        for index in searchStart..<frameLevels.count where frameLevels[index] < frameLevels[quietest] { quietest = index }
        let cut = min(collected.count, (quietest + 1) * Self.frameSamples)
        let utterance = Utterance(start: origin + Double(currentStart) / Double(Utterance.sampleRate), samples: Array(collected[..<cut]),
                                  voiceOnset: Double(min(currentOnset, cut)) / Double(Utterance.sampleRate))
        current = Array(collected[cut...])
        currentStart += cut
        currentOnset = 0
        frameLevels = Array(frameLevels[(quietest + 1)...])
        speechFrames = frameLevels.count
        return utterance
    }

    private mutating func finish(trimming trim: Int) -> Utterance? {
        guard let collected = current else { return nil }
        current = nil
        frameLevels = []
        silentFrames = 0
        let samples = Array(collected.prefix(max(0, collected.count - trim)))
        let enoughSpeech = Double(speechFrames) / 50 >= configuration.shortest
        speechFrames = 0
        guard enoughSpeech, !samples.isEmpty else { return nil }
        return Utterance(start: origin + Double(currentStart) / Double(Utterance.sampleRate), samples: samples,
                         voiceOnset: Double(min(currentOnset, samples.count)) / Double(Utterance.sampleRate))
    }

    /// A frame's RMS level in dBFS (-100 for digital silence).
    static func level(_ frame: [Float]) -> Float {
        var sum: Float = 0
        for sample in frame where sample.isFinite { sum += sample * sample }
        let rms = (sum / Float(max(frame.count, 1))).squareRoot()
        return rms > 0.00001 ? 20 * log10(rms) : -100
    }
}
