import Encode

/// Which of a run's encoded packets one job's outputs get, and at what times (issue 26 items 1
/// and 7). Several jobs can share one encode (`JobSlot`); each still starts when it joins,
/// pauses and resumes on its own, and its files play straight through from 0 as if it had been
/// encoded alone.
///
/// - Closed (paused) from a cut, the pts of the next picture and audio block the run makes when
///   the pause is asked for: what the encoders still hold from before it passes, nothing after.
/// - Opening (started or resumed), video waits for a keyframe from the run's next picture on
///   (the run forces one there; an older one an encoder still held does not open it); from it
///   on, video passes moved back by what the gate left out, so the output's frames follow on
///   with no hole. What the encoders still hold from before the cut passes meanwhile.
/// - Audio follows the video's move to within half a block: of the blocks that come about the
///   keyframe (the pause's last few and those while the keyframe is awaited), the first kept is
///   the one whose move is nearest the video's, and every block after it follows on. So lip sync
///   holds however many pauses there are, and audio has no hole either. Without video, audio
///   reopens at once.
/// - Each span the output was open for is remembered with its move (the last few), so what
///   arrives late on the run's clock (a caption said before a pause) is still placed.
///
/// Times: video packets count frames (1/`framesPerSecond`), audio packets samples at 48 kHz;
/// both streams of a fresh encode start at 0. A value the pipeline's thread owns.
struct OutputGate {
    enum State: Equatable {
        case open
        case closed
        /// Waiting for the keyframe to reopen at.
        case opening
    }

    /// A stretch of the run's media the output took, from `from` (seconds) to `to` (nil: still
    /// open), and what was taken off its times.
    struct Span {
        var from: Double
        var to: Double?
        var videoShift: Int64
        /// Nil while the audio is still being lined up.
        var audioShift: Int64?
    }

    let framesPerSecond: Int
    let hasVideo: Bool
    private(set) var state: State
    /// What is taken off an admitted video packet's pts and dts (frames).
    private(set) var videoShift: Int64 = 0
    /// What is taken off an admitted audio packet's pts and dts (samples).
    private(set) var audioShift: Int64 = 0
    /// Audio waits to be lined up with the video's new shift (after the keyframe reopened it).
    private var aligningAudio = false
    /// Audio blocks that came while the keyframe was awaited, the oldest first.
    private var heldAudio: [EncodedPacket] = []
    /// The next output video pts (frames) and audio pts (samples).
    private(set) var nextVideo: Int64 = 0
    private(set) var nextAudio: Int64 = 0
    /// The spans the output was open for, the latest last.
    private(set) var spans: [Span] = []

    static let sampleRate: Int64 = 48_000
    /// Where the pause under way began: the first video pts (frames) and audio pts (samples) left out.
    private(set) var cut: (video: Int64, audio: Int64) = (0, 0)
    /// A packet from past the cut came (video, or audio without video): everything from before
    /// it has passed, and the outputs can be finished.
    private(set) var pastCut = false
    /// Opening, the first video pts it may open at: the picture after the resume or the join.
    /// A keyframe from before it can still come out of an encoder (one that stopped making a
    /// composite nobody took holds its last few pictures until it goes on, and one may be a
    /// keyframe of the 2 s cadence): opening there would put the rest of the pause in the file
    /// as a hole.
    private(set) var opensFrom: Int64 = 0
    /// Audio held while a keyframe is awaited: about 1.4 s of AAC blocks, more than a forced
    /// keyframe ever takes.
    static let maximumHeldAudio = 64
    /// Audio kept from a pause's last moments: about a third of a second.
    static let audioKeptWhilePaused = 16
    /// Spans remembered: enough for captions that come seconds late.
    static let spansKept = 16

    /// A gate open from the run's start, or, for a job that joins later, opening at the first
    /// keyframe from pts `from` (the run's next picture) on.
    init(framesPerSecond: Int, hasVideo: Bool, openFromStart: Bool, from: Int64 = 0) {
        self.framesPerSecond = framesPerSecond
        self.hasVideo = hasVideo
        state = openFromStart ? .open : .opening
        opensFrom = from
        if openFromStart { spans = [Span(from: 0, to: nil, videoShift: 0, audioShift: 0)] }
    }

    var isPaused: Bool { state != .open }

    /// Seconds written so far: the output's media time.
    var outputSeconds: Double {
        hasVideo ? Double(nextVideo) / Double(framesPerSecond) : Double(nextAudio) / Double(Self.sampleRate)
    }

    /// Closes from the cut on: video from pts `video` (frames), audio from `audio` (samples); one
    /// still awaiting its keyframe stays shut. False when closed already.
    mutating func close(video: Int64, audio: Int64) -> Bool {
        guard state != .closed else { return false }
        cut = state == .open ? (video, audio) : (0, 0)
        // Audio not lined up yet with the last reopening has no move to pass with: none passes.
        if aligningAudio { cut.audio = 0 }
        pastCut = false
        if state == .open, !spans.isEmpty {
            spans[spans.count - 1].to = hasVideo ? Double(video) / Double(framesPerSecond) : Double(audio) / Double(Self.sampleRate)
        }
        state = .closed
        heldAudio.removeAll()
        aligningAudio = false
        return true
    }

    /// Opens again at the next keyframe from pts `from` on (the run's next picture, which the run
    /// is to force as one); false when not closed.
    mutating func open(from: Int64 = 0) -> Bool {
        guard state == .closed else { return false }
        state = .opening
        opensFrom = max(from, cut.video)
        if !hasVideo { heldAudio = [] }
        return true
    }

    /// What of `packet` the outputs get: none, or it (or held audio with it) moved to the output's times.
    mutating func admit(_ packet: EncodedPacket) -> [EncodedPacket] {
        switch packet.stream {
        case .video: return admitVideo(packet)
        case .audio: return admitAudio(packet)
        }
    }

    private mutating func admitVideo(_ packet: EncodedPacket) -> [EncodedPacket] {
        // What the encoder still held from before a pause is written, whatever came since.
        if state != .open && packet.pts < cut.video { return [moved(packet)] }
        switch state {
        case .closed:
            pastCut = true
            return []
        case .opening:
            guard packet.isKeyframe, packet.pts >= opensFrom else { return [] }
            videoShift = packet.pts - nextVideo
            state = .open
            aligningAudio = true
            remember(from: Double(packet.pts) / Double(framesPerSecond))
            let held = heldAudio
            heldAudio = []
            return [moved(packet)] + held.flatMap { admitAudio($0) }
        case .open:
            return [moved(packet)]
        }
    }

    private mutating func admitAudio(_ packet: EncodedPacket) -> [EncodedPacket] {
        if state != .open && packet.pts < cut.audio { return [moved(packet)] }
        switch state {
        case .closed:
            if !hasVideo { pastCut = true }
            // Kept a while: the run may mix sound ahead of its pictures, so the block that lines
            // up with the keyframe a resume waits for can come before the resume.
            heldAudio.append(packet)
            if heldAudio.count > Self.audioKeptWhilePaused { heldAudio.removeFirst() }
            return []
        case .opening:
            guard hasVideo else {
                audioShift = packet.pts - nextAudio
                state = .open
                remember(from: Double(packet.pts) / Double(Self.sampleRate))
                spans[spans.count - 1].audioShift = audioShift
                return [moved(packet)]
            }
            heldAudio.append(packet)
            if heldAudio.count > Self.maximumHeldAudio { heldAudio.removeFirst() }
            return []
        case .open:
            if aligningAudio {
                // The video moved back by this many samples; the first block whose own move
                // comes within half a block of it is kept, and those before it dropped.
                let target = videoShift * Self.sampleRate / Int64(framesPerSecond)
                let shift = packet.pts - nextAudio
                guard shift >= target - max(1, packet.duration) / 2 else { return [] }
                audioShift = shift
                aligningAudio = false
                if !spans.isEmpty { spans[spans.count - 1].audioShift = shift }
            }
            return [moved(packet)]
        }
    }

    private mutating func remember(from time: Double) {
        spans.append(Span(from: time, to: nil, videoShift: videoShift, audioShift: hasVideo ? nil : audioShift))
        if spans.count > Self.spansKept { spans.removeFirst(spans.count - Self.spansKept) }
    }

    private mutating func moved(_ packet: EncodedPacket) -> EncodedPacket {
        var out = packet
        switch packet.stream {
        case .video:
            out.pts -= videoShift
            out.dts -= videoShift
            nextVideo = out.pts + max(1, packet.duration)
        case .audio:
            out.pts -= audioShift
            out.dts -= audioShift
            nextAudio = out.pts + max(1, packet.duration)
        }
        return out
    }

    /// The span that holds a time of the run's media (seconds), if the output took it.
    func span(holding time: Double) -> Span? {
        spans.last { $0.from <= time && ($0.to.map { time < $0 } ?? true) }
    }

    /// Where a time of the run's media (seconds) falls in the output: nil when the gate left it out.
    func outputTime(of time: Double) -> Double? {
        span(holding: time).map { time - seconds(of: $0) }
    }

    /// Where an audio block that starts at `sample` of the run's media falls in the output's
    /// samples: nil when the gate left it out.
    func outputSample(of sample: Int64) -> Int64? {
        span(holding: Double(sample) / Double(Self.sampleRate)).map { span in
            sample - (span.audioShift ?? span.videoShift * Self.sampleRate / Int64(framesPerSecond))
        }
    }

    /// Seconds of the run's media left out before a span.
    private func seconds(of span: Span) -> Double {
        hasVideo ? Double(span.videoShift) / Double(framesPerSecond) : Double(span.audioShift ?? 0) / Double(Self.sampleRate)
    }
}
