import Composite
import Encode
import Foundation
import JobSpec
import Layout
import Media
import MediaSource
import Mix

/// Turns decoded pictures and audio into a constant-rate timeline: one composited picture every
/// 1/fps and one audio block every 1024 samples, on the media clock, with no holes.
///
/// - The room changes on the frame its events fall on: a participant appears at their join and
///   disappears at their leave, a camera turned off becomes a placeholder, a screen share takes
///   the main area from its first picture, a rename changes the label. A camera that has no
///   picture yet (it waits for its first keyframe) is a placeholder.
/// - Time runs whether or not anyone sends: a stalled camera repeats its last picture, and audio
///   nobody sends is silence.
/// - Audio and video come from the same clock: a picture at media time t is shown at the
///   output frame nearest t, a sample at t is at sample t × 48 000. They stay within one frame.
///
/// Pictures and audio are routed by SSRC: a track's route exists from when its publication is
/// announced until its end is applied, so late media of an ended track is dropped and a track
/// that comes back with a new SSRC is a new route.
public final class RoomComposer {
    struct VideoTrack {
        let participantID: String
        let isShare: Bool
        var queue: [VideoFrame] = []
        var current: VideoFrame?
    }

    /// The config; its layout and theme change with `change(layout:theme:)`.
    public private(set) var config: RecordingConfig
    public let framesPerSecond: Int
    /// Audio block size (the AAC frame).
    public let audioBlock: Int
    private var compositor: Compositor?
    private let text: TextRenderer?
    /// Who is in the room at the time of the latest output.
    private var roster = RoomRoster()
    private var videoTracks: [UInt32: VideoTrack] = [:]
    private var audioRoutes: [UInt32: String] = [:]
    private var pending: [TimedRoomEvent] = []
    private var previousLayout: Layout?
    public let mixer = AudioMixer()
    public private(set) var detector = SpeakerDetector()
    /// Output frames and audio samples produced so far.
    public private(set) var videoFrames: Int64 = 0
    /// Pictures that came after the output frame they fall on was made (a receive path or a
    /// machine running behind the playout delay), shown a frame or more late; and the worst,
    /// in seconds. A recording's log says them at the end.
    public private(set) var latePictures = 0
    public private(set) var worstPictureLateness = 0.0
    public private(set) var audioSamples: Int64 = 0
    /// The latest media time any input reached, or the source clock passed (the end of the
    /// recording when the source ends).
    public private(set) var mediaEnd: Double = 0
    /// Events applied so far, for logs and tests.
    public private(set) var eventsApplied = 0

    /// Receives each picture of the 1/fps timeline (its index) as a function that draws it on
    /// planes the receiver lends: the encoder's input frame, so a picture is drawn where it is
    /// encoded from and never copied. The planes should keep what was drawn on them last time:
    /// the compositor draws only what changed (`Compositor`).
    public var onPicture: (_ index: Int64, _ draw: (PlanarImage) -> Void) throws -> Void = { _, _ in }
    /// Receives each mixed block (with its first sample's position).
    public var onAudio: ([Float], Int64) throws -> Void = { _, _ in }
    /// Receives, for each block, each present participant's own audio in it (nil: not asked
    /// for). A transcription keeps these: speech attributed to who said it, on the recording's clock.
    public var onParticipantAudio: ((ParticipantAudio) -> Void)?
    /// Sees the layout of each picture (tests use it to know where each tile was).
    public var onLayout: (Layout, Int64) -> Void = { _, _ in }
    /// Whether it mixes the room's sound (a branch's composer, `fork`, makes pictures only; the
    /// sound is the main composer's).
    public private(set) var mixesAudio = true

    /// `participants` are in the room from the first frame. `audioStart` is the first output
    /// sample: the audio encoder's priming, so its packets start at time 0 (the first 21 ms of a
    /// session's audio are given to the priming).
    public init(config: RecordingConfig, participants: [ParticipantDescription] = [], text: TextRenderer?, audioBlock: Int = 1024,
                audioStart: Int64 = 0) throws
    {
        self.config = config
        let preset = OutputPreset.preset(config.quality, orientation: config.orientation)
        framesPerSecond = preset.framesPerSecond
        self.audioBlock = audioBlock
        self.text = text
        audioSamples = audioStart
        mixer.start(at: audioStart)
        if config.mode == .videoAndAudio {
            guard let text else { throw CompositeError("video needs a text renderer") }
            compositor = try Compositor(canvas: preset.size, theme: Theme.named(config.theme), text: text)
        } else {
            compositor = nil
        }
        for participant in participants {
            route(participant.tracks, of: participant.id)
            apply(.join(participant), at: 0)
        }
    }

    // MARK: - Input

    /// A room event. Its routes are made at once (so the track's first pictures are kept); its
    /// effect on the layout and the mix comes on the output frame its time falls on.
    public func schedule(_ event: RoomEvent, at time: Double) {
        switch event {
        case .join(let participant): route(participant.tracks, of: participant.id)
        case .publish(let id, let track): route([track], of: id)
        default: break
        }
        let index = pending.firstIndex { $0.at > time } ?? pending.endIndex
        pending.insert(TimedRoomEvent(at: time, event: event), at: index)
        mediaEnd = max(mediaEnd, time)
    }

    /// A decoded camera or screen-share picture of the track `ssrc`.
    public func add(picture: VideoFrame, ssrc: UInt32) {
        guard var track = videoTracks[ssrc] else { return }
        // The last frame made took pictures up to half a frame past its time.
        let frameDuration = 1 / Double(framesPerSecond)
        let lateness = (Double(videoFrames) - 0.5) * frameDuration - picture.mediaTime
        if compositor != nil, lateness >= 0 {
            latePictures += 1
            worstPictureLateness = max(worstPictureLateness, lateness)
        }
        if let last = track.queue.last, last.mediaTime > picture.mediaTime {
            let index = track.queue.firstIndex { $0.mediaTime > picture.mediaTime } ?? track.queue.count
            track.queue.insert(picture, at: index)
        } else {
            track.queue.append(picture)
        }
        videoTracks[ssrc] = track
        mediaEnd = max(mediaEnd, picture.mediaTime + 1 / Double(framesPerSecond))
    }

    /// Decoded audio of the track `ssrc`.
    public func add(audio chunk: AudioChunk, ssrc: UInt32) {
        guard let id = audioRoutes[ssrc] else { return }
        mixer.add(chunk, participant: id)
        mediaEnd = max(mediaEnd, chunk.mediaTime + chunk.duration)
    }

    /// The source's clock reached `time` with nothing for that time still to come: the output
    /// may extend to it (nobody sending is silence and repeated pictures, not the end).
    public func extend(to time: Double) {
        mediaEnd = max(mediaEnd, time)
    }

    /// Whether a track is routed (announced and not yet ended).
    public func isRouted(ssrc: UInt32) -> Bool { videoTracks[ssrc] != nil || audioRoutes[ssrc] != nil }

    private func route(_ tracks: [TrackDescription], of id: String) {
        for track in tracks {
            if track.kind.isVideo {
                if videoTracks[track.ssrc]?.participantID != id {
                    videoTracks[track.ssrc] = VideoTrack(participantID: id, isShare: track.kind == .share)
                }
            } else {
                audioRoutes[track.ssrc] = id
            }
        }
    }

    /// A running job's new layout and theme (a control, issue 26 item 2): the next picture is
    /// laid out and drawn with them. A new theme draws the whole canvas afresh; a new layout
    /// moves the tiles the way a join or a leave does, keeping who
    /// is in which order.
    public func change(layout: LayoutSettings, theme: ThemeName) throws {
        if theme != config.theme, let current = compositor, let text {
            compositor = try Compositor(canvas: current.canvasSize, theme: Theme.named(theme), text: text)
        }
        config.layout = layout
        config.theme = theme
    }

    // MARK: - Output

    /// Media time of the next output (picture or audio block) that is not produced yet.
    public var nextOutputTime: Double {
        let audioEnd = mixesAudio ? Double(audioSamples + Int64(audioBlock)) / Double(AudioMixer.sampleRate) : Double.infinity
        guard compositor != nil else { return audioEnd }
        let frameDuration = 1 / Double(framesPerSecond)
        return min(audioEnd, Double(videoFrames) * frameDuration + frameDuration / 2)
    }

    /// Produces every picture and audio block whose media time is complete before `time`.
    public func advance(until time: Double) throws {
        let frameDuration = 1 / Double(framesPerSecond)
        let blockDuration = Double(audioBlock) / Double(AudioMixer.sampleRate)
        while true {
            let audioEnd = Double(audioSamples + Int64(audioBlock)) / Double(AudioMixer.sampleRate)
            let videoTime = Double(videoFrames) * frameDuration
            // A nanosecond of slack: `time` is often `nextOutputTime` after a round trip through
            // the playout delay, and rounding must not leave that output waiting for ever.
            let videoReady = compositor != nil && videoTime + frameDuration / 2 <= time + 1e-9
            let audioReady = mixesAudio && audioEnd <= time + 1e-9
            if audioReady && (!videoReady || audioEnd <= videoTime + 1e-9) {
                try mixBlock(end: audioEnd, duration: blockDuration)
            } else if videoReady {
                try renderPicture(at: videoTime)
            } else {
                return
            }
        }
    }

    /// The source ended: produce everything up to the last media.
    public func finish() throws {
        try advance(until: mediaEnd + 1 / Double(framesPerSecond) / 2)
        // The last audio block, padded with silence, so audio reaches the end too.
        if mixesAudio && Double(audioSamples) / Double(AudioMixer.sampleRate) < mediaEnd {
            try mixBlock(end: Double(audioSamples + Int64(audioBlock)) / Double(AudioMixer.sampleRate),
                         duration: Double(audioBlock) / Double(AudioMixer.sampleRate))
        }
    }

    private func mixBlock(end: Double, duration: Double) throws {
        applyEvents(upTo: end - duration)
        let block = mixer.mix(frames: audioBlock)
        for id in roster.ids {
            detector.observe(participant: id, samples: block.perParticipant[id] ?? [][...], duration: duration, at: end)
        }
        detector.update(at: end)
        let start = audioSamples
        audioSamples += Int64(audioBlock)
        if let onParticipantAudio {
            for (id, member) in roster.members.sorted(by: { $0.key < $1.key }) {
                onParticipantAudio(ParticipantAudio(participantID: id, name: member.name, samples: block.perParticipant[id] ?? [][...],
                                                    offset: block.offsets[id] ?? 0, blockFrames: audioBlock, blockStart: start))
            }
        }
        try onAudio(block.mixed, start)
    }

    private func renderPicture(at time: Double) throws {
        guard let compositor else { return }
        applyEvents(upTo: time)
        let limit = time + 0.5 / Double(framesPerSecond)
        for ssrc in videoTracks.keys {
            guard var track = videoTracks[ssrc], let first = track.queue.first, first.mediaTime <= limit else { continue }
            // Take the newest picture due by this frame; older ones are skipped.
            let due = track.queue.firstIndex { $0.mediaTime > limit } ?? track.queue.count
            track.current = track.queue[due - 1]
            track.queue.removeFirst(due)
            videoTracks[ssrc] = track
        }
        var pictures: [String: VideoFrame] = [:]
        var shares: [String: VideoFrame] = [:]
        for (id, member) in roster.members {
            if let picture = member.cameraSSRC.flatMap({ videoTracks[$0]?.current }) { pictures[id] = picture }
            if let share = member.shareSSRC.flatMap({ videoTracks[$0]?.current }) { shares[id] = share }
        }
        let shown = layout(of: roster, canvas: compositor.canvasSize) { shares[$0] != nil }
        previousLayout = shown
        let index = videoFrames
        onLayout(shown, index)
        videoFrames += 1
        try onPicture(index) { image in compositor.render(shown, pictures: pictures, shares: shares, into: image) }
    }

    /// The layout the events scheduled so far will make once they apply (nil without video):
    /// who will be there and what they will publish (the speaker as it is now); a share counts
    /// once it has a picture, as on the frame. `LayerChooser` asks for each camera's layer from
    /// it, so that the room can forward the layer a camera's tile needs before its first
    /// picture, not after.
    public func anticipatedLayout() -> Layout? {
        guard let compositor else { return nil }
        var future = roster
        for timed in pending { future.apply(timed.event, at: timed.at) }
        return layout(of: future, canvas: compositor.canvasSize) { id in
            guard let ssrc = future[id]?.shareSSRC, let track = videoTracks[ssrc] else { return false }
            return track.current != nil || !track.queue.isEmpty
        }
    }

    private func layout(of roster: RoomRoster, canvas: Size, isSharing: (String) -> Bool) -> Layout {
        LayoutEngine.layout(participants: roster.layoutParticipants(lastSpoke: detector.lastSpoke, isSharing: isSharing),
                                   activeSpeaker: detector.activeSpeaker, configuration: LayoutConfiguration(config, canvas: canvas),
                                   previous: previousLayout)
    }

    // MARK: - Branches

    /// A composer for the same room in another layout and theme, from the next picture on
    /// (issue 26 item 7): who is present, their pictures, the events still to apply and the
    /// frame count as this one has them now. It makes pictures only (`mixesAudio` false), and
    /// follows this one's speakers (`follow(speakers:)`).
    public func fork(layout: LayoutSettings, theme: ThemeName) throws -> RoomComposer {
        var branchConfig = config
        branchConfig.layout = layout
        branchConfig.theme = theme
        let branch = try RoomComposer(config: branchConfig, text: text, audioBlock: audioBlock, audioStart: audioSamples)
        branch.mixesAudio = false
        branch.roster = roster
        branch.videoTracks = videoTracks
        branch.audioRoutes = audioRoutes
        branch.pending = pending
        branch.detector = detector
        branch.videoFrames = videoFrames
        branch.mediaEnd = mediaEnd
        return branch
    }

    /// Takes who speaks from the composer that mixes the sound.
    public func follow(speakers: SpeakerDetector) {
        detector = speakers
    }

    // MARK: - Room events

    private func applyEvents(upTo time: Double) {
        while let first = pending.first, first.at <= time {
            pending.removeFirst()
            apply(first.event, at: first.at)
            eventsApplied += 1
        }
    }

    private func apply(_ event: RoomEvent, at time: Double) {
        if case .leave(let id) = event, roster[id] != nil {
            mixer.remove(participant: id)
            detector.remove(participant: id)
        }
        if case .activeSpeaker(let id) = event { detector.override(speaker: id, at: time) }
        for ssrc in roster.apply(event, at: time) {
            videoTracks[ssrc] = nil
            audioRoutes[ssrc] = nil
        }
    }
}
