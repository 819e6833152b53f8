import Composite
import Foundation
import Layout
import Media
import Mix

/// Turns decoded pictures and audio into a constant-rate timeline: one composited picture every
/// 1/fps and one audio block every 1024 samples, on the media clock, with no holes.
///
/// - A stalled camera repeats its last picture; a camera with no picture yet is a placeholder.
/// - A participant appears when they join (up to `joinLead` before their first media, so the
///   people present at the start are there from the first frame) and is removed when they
///   leave.
/// - Audio and video come from the same clock: a picture at media time t is shown at the
///   output frame nearest t, a sample at t is at sample t × 48 000. They stay within one frame.
public final class RoomComposer: @unchecked Sendable {
    public struct Participant: Sendable {
        public var id: String
        public var name: String
        public var hasCameraTrack: Bool
        public var hasShareTrack: Bool

        public init(id: String, name: String, hasCameraTrack: Bool, hasShareTrack: Bool) {
            self.id = id
            self.name = name
            self.hasCameraTrack = hasCameraTrack
            self.hasShareTrack = hasShareTrack
        }
    }

    /// A room event on the media clock (manifest events, or signalling in a live room).
    public enum RoomEvent: Sendable, Equatable {
        case pin(String)
        case unpin(String)
        case activeSpeaker(String)
    }

    struct ParticipantState {
        var info: Participant
        var joinedAt: Double?
        var leftAt: Double?
        var cameraQueue: [VideoFrame] = []
        var camera: VideoFrame?
        var shareQueue: [VideoFrame] = []
        var share: VideoFrame?
        var cameraEnded = false
        var shareEnded = false
        var pinnedAt: Double?
    }

    public let configuration: RecordingConfiguration
    public let framesPerSecond: Int
    /// Audio block size (the AAC frame).
    public let audioBlock: Int
    public let joinLead: Double
    private let compositor: Compositor?
    private var canvas: VideoFrame?
    private var participants: [String: ParticipantState] = [:]
    private var order: [String] = []
    private var events: [(at: Double, event: RoomEvent)] = []
    private var previousLayout: Layout?
    public let mixer = AudioMixer()
    public private(set) var detector = SpeakerDetector()
    /// Output frames and audio samples produced so far.
    public private(set) var videoFrames: Int64 = 0
    public private(set) var audioSamples: Int64 = 0
    /// The latest media time any input reached (the end of the recording when the source ends).
    public private(set) var mediaEnd: Double = 0
    public private(set) var currentLayout: Layout?

    /// Receives each composited picture (its index on the 1/fps timeline) and each mixed block
    /// (with its first sample's position).
    public var onPicture: (VideoFrame, Int64) throws -> Void = { _, _ in }
    public var onAudio: ([Float], Int64) throws -> Void = { _, _ in }
    /// Sees the layout of each picture (tests use it to know where each tile was).
    public var onLayout: (Layout, Int64) -> Void = { _, _ in }

    /// `audioStart` is the first output sample: the audio encoder's priming, so its packets
    /// start at time 0 (the first 21 ms of a session's audio are given to the priming).
    public init(configuration: RecordingConfiguration, participants: [Participant], events: [(at: Double, event: RoomEvent)] = [],
                text: TextRenderer?, audioBlock: Int = 1024, audioStart: Int64 = 0) throws
    {
        self.configuration = configuration
        framesPerSecond = configuration.preset.framesPerSecond
        self.audioBlock = audioBlock
        joinLead = min(0.4, configuration.playoutDelay)
        for participant in participants {
            self.participants[participant.id] = ParticipantState(info: participant)
            order.append(participant.id)
        }
        self.events = events.sorted { $0.at < $1.at }
        audioSamples = audioStart
        mixer.start(at: audioStart)
        if configuration.mode == .videoAndAudio {
            guard let text else { throw CompositeError("video needs a text renderer") }
            let made = try Compositor(canvas: configuration.preset.size, theme: Theme.named(configuration.theme), text: text)
            compositor = made
            canvas = made.makeCanvas()
        } else {
            compositor = nil
        }
    }

    // MARK: - Input

    public func participantJoined(_ id: String, at time: Double) {
        guard participants[id]?.joinedAt == nil else { return }
        participants[id]?.joinedAt = time
        mediaEnd = max(mediaEnd, time)
    }

    public func participantLeft(_ id: String, at time: Double) {
        participants[id]?.leftAt = time
    }

    /// A decoded camera or screen-share picture.
    public func add(picture: VideoFrame, participant id: String, isShare: Bool) {
        guard var state = participants[id] else { return }
        if isShare {
            RoomComposer.insert(picture, into: &state.shareQueue)
        } else {
            RoomComposer.insert(picture, into: &state.cameraQueue)
        }
        participants[id] = state
        mediaEnd = max(mediaEnd, picture.mediaTime + 1 / Double(framesPerSecond))
    }

    public func add(audio chunk: AudioChunk, participant id: String) {
        mixer.add(chunk, participant: id)
        mediaEnd = max(mediaEnd, chunk.mediaTime + chunk.duration)
    }

    /// A track said BYE: its picture is kept until the participant leaves, but it is no
    /// longer a camera (or share) that is on.
    public func trackEnded(participant id: String, isShare: Bool) {
        if isShare { participants[id]?.shareEnded = true } else { participants[id]?.cameraEnded = true }
    }

    private static func insert(_ picture: VideoFrame, into queue: inout [VideoFrame]) {
        if let last = queue.last, last.mediaTime > picture.mediaTime {
            let index = queue.firstIndex { $0.mediaTime > picture.mediaTime } ?? queue.count
            queue.insert(picture, at: index)
        } else {
            queue.append(picture)
        }
    }

    // MARK: - Output

    /// Produces every picture and audio block whose media time is complete before `time`.
    public func advance(until time: Double) throws {
        let frameDuration = 1 / Double(framesPerSecond)
        let blockDuration = Double(audioBlock) / Double(AudioMixer.sampleRate)
        while true {
            let audioEnd = Double(audioSamples + Int64(audioBlock)) / Double(AudioMixer.sampleRate)
            let videoTime = Double(videoFrames) * frameDuration
            let videoReady = compositor != nil && videoTime + frameDuration / 2 <= time
            let audioReady = audioEnd <= time
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
        if Double(audioSamples) / Double(AudioMixer.sampleRate) < mediaEnd {
            try mixBlock(end: Double(audioSamples + Int64(audioBlock)) / Double(AudioMixer.sampleRate),
                         duration: Double(audioBlock) / Double(AudioMixer.sampleRate))
        }
    }

    private func mixBlock(end: Double, duration: Double) throws {
        let (mixed, contributions) = mixer.mix(frames: audioBlock)
        for id in order {
            detector.observe(participant: id, samples: contributions[id] ?? [][...], duration: duration, at: end)
        }
        detector.update(at: end)
        audioSamples += Int64(audioBlock)
        try onAudio(mixed, audioSamples - Int64(audioBlock))
    }

    private func renderPicture(at time: Double) throws {
        // Taken out of self while drawing, so its buffers stay uniquely referenced and are
        // written in place rather than copied.
        guard let compositor, var canvas = self.canvas.take() else { return }
        defer { self.canvas = canvas }
        applyEvents(upTo: time)
        let limit = time + 0.5 / Double(framesPerSecond)
        var pictures: [String: VideoFrame] = [:]
        var shares: [String: VideoFrame] = [:]
        var visible: [LayoutParticipant] = []
        for id in order {
            guard var state = participants[id] else { continue }
            // Take the newest picture due by this frame; older ones are skipped.
            while let next = state.cameraQueue.first, next.mediaTime <= limit {
                state.camera = next
                state.cameraQueue.removeFirst()
            }
            while let next = state.shareQueue.first, next.mediaTime <= limit {
                state.share = next
                state.shareQueue.removeFirst()
            }
            participants[id] = state
            guard let joined = state.joinedAt, joined - joinLead <= time else { continue }
            if let left = state.leftAt, left <= time {
                if state.camera != nil || state.share != nil || !state.cameraQueue.isEmpty {
                    participants[id]?.camera = nil
                    participants[id]?.share = nil
                    participants[id]?.cameraQueue.removeAll()
                    participants[id]?.shareQueue.removeAll()
                    mixer.remove(participant: id)
                    detector.remove(participant: id)
                }
                continue
            }
            let cameraOn = state.info.hasCameraTrack && !state.cameraEnded
            let sharing = state.info.hasShareTrack && !state.shareEnded && state.share != nil
            if let camera = state.camera, cameraOn { pictures[id] = camera }
            if let share = state.share, sharing { shares[id] = share }
            visible.append(LayoutParticipant(
                id: id, name: state.info.name, hasCamera: cameraOn, isSharingScreen: sharing, pinnedAt: state.pinnedAt,
                lastSpokeAt: detector.lastSpoke[id], joinedAt: joined))
        }
        let layout = LayoutEngine.layout(participants: visible, activeSpeaker: detector.activeSpeaker,
                                         configuration: configuration.layoutConfiguration, previous: previousLayout)
        previousLayout = layout
        currentLayout = layout
        compositor.render(layout, pictures: pictures, shares: shares, into: &canvas)
        canvas.mediaTime = time
        let index = videoFrames
        onLayout(layout, index)
        videoFrames += 1
        try onPicture(canvas, index)
    }

    private func applyEvents(upTo time: Double) {
        while let first = events.first, first.at <= time {
            events.removeFirst()
            switch first.event {
            case .pin(let id): participants[id]?.pinnedAt = first.at
            case .unpin(let id): participants[id]?.pinnedAt = nil
            case .activeSpeaker(let id): detector.override(speaker: id, at: first.at)
            }
        }
    }
}
