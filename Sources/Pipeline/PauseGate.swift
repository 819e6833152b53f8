/// Which of the composer's pictures and audio blocks reach the encoders while a recording is
/// paused and resumed (issue 26 item 1). The composer runs on through a pause (its layout, mix
/// and speaker detection keep up with the room) and the gate drops what falls in it; the
/// encoders number their own frames and samples, so the output has no hole and the file plays
/// straight through from the last frame before the pause to the first after it.
///
/// Video leads: a picture whose time falls in a pause is dropped. Audio blocks (1024 samples)
/// and pictures (1/fps) do not line up, so audio follows the time video dropped to within half
/// a block: a block more is dropped, or one of silence added, and lip sync holds however many
/// pauses there are. An audio-only recording drops the blocks in a pause and nothing else.
///
/// Times are the composer's media time (seconds); the gate is a value the pipeline's thread owns.
struct PauseGate {
    /// What becomes of one audio block.
    enum AudioDecision: Equatable {
        case encode
        case drop
        /// Encode this many blocks of silence first, then the block: video dropped more than
        /// audio did.
        case encodeAfterSilence(blocks: Int)
    }

    let framesPerSecond: Int
    let audioBlock: Int
    let hasVideo: Bool
    /// Where the pause under way began, if one is.
    private(set) var pausedSince: Double?
    /// Pauses that have ended, the latest last: a picture or block made after a resume whose
    /// time still falls in the pause is dropped too. The oldest are forgotten (the output has
    /// long passed them).
    private var ended: [(start: Double, end: Double)] = []
    private(set) var videoFramesDropped: Int64 = 0
    /// Audio samples dropped, less the silence added.
    private(set) var audioSamplesDropped: Int64 = 0

    init(framesPerSecond: Int, audioBlock: Int, hasVideo: Bool) {
        self.framesPerSecond = framesPerSecond
        self.audioBlock = audioBlock
        self.hasVideo = hasVideo
    }

    var isPaused: Bool { pausedSince != nil }

    /// Seconds of the room left out of the output so far: what to take off a later media time
    /// (a caption's) to place it in the output.
    var secondsDropped: Double {
        hasVideo ? Double(videoFramesDropped) / Double(framesPerSecond) : Double(audioSamplesDropped) / Double(Self.sampleRate)
    }

    /// Pauses from `time` on; false when already paused.
    mutating func pause(at time: Double) -> Bool {
        guard pausedSince == nil else { return false }
        pausedSince = time
        return true
    }

    /// Resumes at `time`; the pause's length, or nil when not paused.
    mutating func resume(at time: Double) -> Double? {
        guard let start = pausedSince else { return nil }
        pausedSince = nil
        let end = max(start, time)
        ended.append((start, end))
        if ended.count > 8 { ended.removeFirst(ended.count - 8) }
        return end - start
    }

    /// Whether media of this time is left out.
    func isPaused(at time: Double) -> Bool {
        if let pausedSince, time >= pausedSince { return true }
        return ended.contains { time >= $0.start && time < $0.end }
    }

    /// Whether the picture of this time is encoded (counting it as dropped when not).
    mutating func admitPicture(at time: Double) -> Bool {
        guard isPaused(at: time) else { return true }
        videoFramesDropped += 1
        return false
    }

    /// What becomes of the audio block that starts at this time.
    mutating func admitAudio(at time: Double) -> AudioDecision {
        let block = Int64(audioBlock)
        if isPaused(at: time) {
            audioSamplesDropped += block
            return .drop
        }
        guard hasVideo else { return .encode }
        let target = videoFramesDropped * Int64(Self.sampleRate) / Int64(framesPerSecond)
        let behind = target - audioSamplesDropped
        if behind > block / 2 {
            audioSamplesDropped += block
            return .drop
        }
        if -behind > block / 2 {
            let blocks = Int((-behind + block / 2) / block)
            audioSamplesDropped -= Int64(blocks) * block
            return .encodeAfterSilence(blocks: blocks)
        }
        return .encode
    }

    static let sampleRate = 48_000
}
