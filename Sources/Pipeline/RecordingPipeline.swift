import Composite
import Decode
import Encode
import Foundation
import Ingest
import JobSpec
import Log
import Media
import MediaSource
import Outputs
import Platform
import Subscriber
import Transcription

/// The whole recording path, assembled in one place:
///
///     MediaSource (fixture or room) → SubscriberSession (RTP, jitter buffer, media clock,
///       E2EE, keyframe and report policy) → track decoders → RoomComposer (room events,
///       layout, compositing, mixing, speaker detection, constant frame rate) → VideoEncoder +
///       AudioEncoder (once) → every PacketSink (MP4, HLS, RTMP)
///     and back up the source: PLI, NACK, receiver reports.
///
/// It runs on the calling thread: ingest, decode, composite and mix are plain calls in one loop,
/// with no hand-off per packet. The encoders use their own threads, and sinks that do I/O put a
/// queue in front of themselves (docs/PIPELINE.md says why one thread).
///
/// The loop is driven by the output clock, not by packets: it asks the source for the next
/// datagram or event no later than the time the next output frame is due, so a room where
/// nobody sends still produces frames and silence.
public final class RecordingPipeline {
    public struct Progress: Sendable {
        /// Media time produced so far.
        public var mediaTime: Double
        /// The source's length, when known (a fixture).
        public var duration: Double?
        /// Media seconds produced per wall-clock second.
        public var speed: Double
        public var videoFrames: Int64
        public var bytesWritten: Int64
    }

    public let config: RecordingConfig
    /// How long after media arrives it is composited: covers the jitter buffer's wait for late
    /// packets and lets participants who join at the very start appear from frame one.
    public let playoutDelay: Double
    public let composer: RoomComposer
    /// Released once `finish` has flushed it.
    public private(set) var videoEncoder: VideoEncoder?
    public let audioEncoder: AudioEncoder
    /// Receives what the source sends: the one receive path the SDK and the transcriber share.
    private let receiver: SubscriberSession
    private var videoDecoders: [UInt32: VideoTrackDecoder] = [:]
    private var audioDecoders: [UInt32: AudioTrackDecoder] = [:]
    /// Video frames received and not decoded yet, per SSRC, in decode order. A frame is decoded
    /// when it is nearly due on the output (`decodeAhead`), not when it arrives: decoded, it
    /// would wait out the playout delay as a picture (345 KB at 640x360, 1.4 MB at 720p; 15 of
    /// them per camera), encoded it is a few kilobytes.
    private var undecoded: [UInt32: [EncodedFrame]] = [:]
    /// Video tracks that ended with frames still waiting: their decoders go once those are
    /// decoded, as the output reaches them.
    private var endingVideo: Set<UInt32> = []
    private var source: (any MediaSource)?
    /// The source clock's latest reading.
    private var now = 0.0
    private let logger: Logger
    private var speakerTracks: SpeakerTracksWriter?
    public private(set) var packetsWritten = 0
    /// Sees each composited picture (its index, and the branch that made it: 0 for the main
    /// composite) just before it is encoded, for thumbnails, captures, tests and benchmarks; the
    /// planes are valid only during the call.
    public var onCanvas: ((PlanarImage, Int64, Int) -> Void)?
    public private(set) var bytesWritten: Int64 = 0
    /// Pictures of the main composite's timeline so far: every one the composer made, encoded
    /// or, when nothing took it, skipped (`picturesSkipped`).
    public private(set) var outputFrames: Int64 = 0
    /// Which of the main composite's pictures were made (`takesPictures(of:)`).
    var picturesMade = PicturesMade()
    /// Pictures of the main composite neither drawn nor encoded because nothing took them:
    /// every job on it paused, or moved to a composite of its own.
    public var picturesSkipped: Int64 { picturesMade.skipped }
    /// Whether a job wants composite `branch`'s next picture for its own sake (a capture asked
    /// for while it is paused), beside the sinks that take them.
    public var wantsPicture: ((_ branch: Int) -> Bool)?
    /// Audio samples encoded, from the first block's position (the encoder's priming: the
    /// composer's audio timeline starts there too).
    public private(set) var outputSamples: Int64 = 0
    /// The next picture is encoded as a keyframe (`requestKeyframe`: a job that joins or
    /// resumes starts its outputs there).
    private var keyframeNext = false
    /// Output pictures still to be encoded as keyframes: a low-latency HLS output's short first
    /// segments (`forceKeyframes(every:count:)`).
    /// (Every composite of the run forces them, branches too: `CompositeBranch`.)
    var keyframeIndices: Set<Int64> = []
    /// Asks a live room for the simulcast layer of each camera that fills its tile, no more
    /// (`LayerChooser`); off for a fixture, which has one layer.
    public var choosesLayers = false
    public private(set) var layers = LayerChooser()
    /// Whose camera each video SSRC is.
    private var cameraOwners: [UInt32: String] = [:]
    /// When the layers were last looked at: ten times a second is plenty for steps `settle`
    /// apart, and `tick` runs for every datagram.
    private var layersCheckedAt = -Double.infinity

    /// How far ahead of the output video is decoded (seconds of media time): a picture is
    /// decoded just before the output frame that shows it is composited, and the margin only
    /// covers rounding.
    public static let decodeAhead = 0.001

    /// Each sink and the rendition whose video it takes (0: the composite's own); every sink
    /// takes the audio.
    var sinks: [(sink: any PacketSink, rendition: Int)] = []
    /// Composites in other layouts for jobs that share this run (`CompositeBranch`), by id.
    var branches: [CompositeBranch] = []
    var nextBranchID = 1
    /// An HLS ladder's lower rungs (`config.renditions`), renditions 1, 2, …: the composite
    /// scaled and encoded again. Released once `finish` has flushed them.
    public private(set) var rungs: [ScaledVideoEncoder] = []

    /// The encoded streams, for building sinks before `run`.
    public var streams: StreamLayout { streams(rendition: 0) }

    /// The streams of one rendition: its video (0: the composite's encoder) and the audio.
    public func streams(rendition: Int) -> StreamLayout {
        var streams: [StreamLayout.Stream] = []
        if rendition == 0, let videoEncoder {
            streams.append(.init(kind: .video, parameters: videoEncoder.parameters))
        } else if rendition > 0, rendition <= rungs.count {
            streams.append(.init(kind: .video, parameters: rungs[rendition - 1].encoder.parameters))
        }
        streams.append(.init(kind: .audio, parameters: audioEncoder.parameters))
        return StreamLayout(streams: streams)
    }

    /// Renditions encoded: the composite's and each rung.
    public var renditionCount: Int { 1 + rungs.count }

    public init(config: RecordingConfig, playoutDelay: Double = 0.5, logger: Logger = Logger(label: "pipeline")) throws {
        self.config = config
        self.playoutDelay = playoutDelay
        self.logger = logger
        // End-to-end encrypted participants' frames are decrypted, or kept out without a key.
        receiver = SubscriberSession(e2ee: E2EEGate(keys: config.e2ee, logger: logger))
        let preset = OutputPreset.preset(config.quality, orientation: config.orientation)
        let text = config.mode == .videoAndAudio ? try TextRenderer() : nil
        audioEncoder = try AudioEncoder(bitrate: preset.audioBitrate)
        composer = try RoomComposer(config: config, text: text, audioBlock: audioEncoder.frameSize,
                                    audioStart: Int64(audioEncoder.primingSamples))
        videoEncoder = config.mode == .videoAndAudio ? try VideoEncoder(preset: preset) : nil
        if config.mode == .videoAndAudio {
            rungs = try OutputPreset.ladder(for: config).dropFirst().map { try ScaledVideoEncoder(preset: $0, from: preset.size) }
        }
        outputSamples = Int64(audioEncoder.primingSamples)
        composer.onPicture = { [unowned self] index, draw in
            guard let videoEncoder = self.videoEncoder else { return }
            let output = self.outputFrames
            self.outputFrames += 1
            var keyframe = self.keyframeNext
            self.keyframeNext = false
            if self.keyframeIndices.contains(output) { keyframe = true }
            // Branches render the same picture within the same step, so older ones are done with.
            if self.keyframeIndices.contains(where: { $0 < output - 30 }) { self.keyframeIndices = self.keyframeIndices.filter { $0 >= output - 30 } }
            guard self.picturesMade.next(taken: self.takesPictures(of: 0), keyframe: &keyframe) else {
                videoEncoder.skip()
                for rung in self.rungs { rung.skip() }
                return
            }
            var canvas: PlanarImage?
            try self.deliver(videoEncoder.encode(forceKeyframe: keyframe) { image in
                draw(image)
                self.onCanvas?(image, output, 0)
                canvas = image
            })
            // The rungs get the same picture and the same forced keyframes; with the same GOP
            // their segments start where the composite's do. The encoder's frame still holds
            // the picture after `encode` returns (x264 copies its input).
            if let canvas {
                for (index, rung) in self.rungs.enumerated() {
                    try self.deliver(rung.encode(canvas, forceKeyframe: keyframe), rendition: index + 1)
                }
            }
        }
        composer.onAudio = { [unowned self] samples, _ in try self.encodeAudio(samples) }
    }

    /// Adds a sink of `rendition`'s video (0: the composite's; a rung's, 1 and up) and the audio.
    public func add(sink: any PacketSink, rendition: Int = 0) {
        sinks.append((sink, rendition))
        if captionsExpected { sink.expectCaptions() }
    }

    /// The room's live transcription is on: sinks added later hear it too.
    public private(set) var captionsExpected = false

    /// Takes a sink out (a livestream destination a control removed): it gets nothing more. Its
    /// owner finishes it.
    public func remove(sink: any PacketSink & AnyObject) {
        sinks.removeAll { ($0.sink as AnyObject) === sink }
    }

    /// Whether the sink is one the pipeline writes to.
    public func has(sink: any PacketSink & AnyObject) -> Bool {
        sinks.contains { ($0.sink as AnyObject) === sink }
    }

    private func encodeAudio(_ samples: [Float]) throws {
        let start = outputSamples
        outputSamples += Int64(samples.count / 2)
        try deliver(audioEncoder.encode(interleaved: samples, startSample: start))
    }

    // MARK: - Controls

    /// The media time encoded so far.
    public var outputMediaTime: Double {
        config.mode == .audio
            ? Double(outputSamples) / Double(AudioChunk.sampleRate)
            : Double(outputFrames) / Double(composer.framesPerSecond)
    }

    /// Encodes `count` pictures at most `interval` seconds apart as keyframes, counted from
    /// output picture 0 (so call it before `run`), on top of the encoder's own every two seconds
    /// (its GOP counts on from each).
    /// `from`: the output picture to count from (a job that joins a run later counts from where it joins).
    public func forceKeyframes(every interval: Double, count: Int, from start: Int64 = 0) {
        let step = max(1, Int64((interval * Double(composer.framesPerSecond) + 1e-6).rounded(.down)))
        keyframeIndices.formUnion((1...max(1, count)).map { start + Int64($0) * step })
    }

    /// Encodes the next picture as a keyframe (and the rungs' with it): where a job that joins
    /// or resumes starts its outputs.
    public func requestKeyframe() {
        keyframeNext = true
    }

    /// A running job's new layout and theme, from the next picture on.
    public func change(layout: LayoutSettings, theme: ThemeName) throws {
        try composer.change(layout: layout, theme: theme)
    }

    /// Whether anyone publishes a track the recording receives (for the idle timeout).
    public var isPublishing: Bool { !receiver.tracks.isEmpty }

    /// Gives every sink a line of file metadata (the MP4's `comment`: why it ended), behind the
    /// packets written so far.
    public func addMetadata(_ key: String, _ value: String) {
        for (sink, _) in sinks { sink.add(metadata: key, value: value) }
    }

    /// Keeps each participant's own audio in `directory` for a transcript, on the recording's
    /// clock (`SpeakerTracksWriter`); its WAV headers are completed when the run ends. `place`
    /// moves a block's start (samples on the run's clock) to the recording's, nil for a block
    /// the recording leaves out (a pause).
    func keepSpeakerAudio(in directory: String, place: @escaping (Int64) -> Int64?) throws {
        let writer = try SpeakerTracksWriter(directory: directory, logger: logger)
        speakerTracks = writer
        composer.onParticipantAudio = { audio in
            guard let start = place(audio.blockStart) else { return }
            writer.add(participantID: audio.participantID, name: audio.name, samples: audio.samples, offset: audio.offset,
                       blockFrames: audio.blockFrames, blockStart: start)
        }
    }

    /// Records a source until it ends or `shouldStop` says so, then finishes every sink.
    /// `progress` is called about every half second of media.
    public func run(_ source: any MediaSource, progress: (Progress) -> Void = { _ in }, shouldStop: () -> Bool = { false }) throws {
        self.source = source
        defer { self.source = nil }
        let started = Date()
        for participant in source.participants { handle(.join(participant), at: 0) }
        var lastReport = -1.0
        loop: while !shouldStop() {
            let due = branches.reduce(composer.nextOutputTime) { min($0, $1.composer.nextOutputTime) }
            switch source.next(until: due + playoutDelay) {
            case .datagram(let bytes, let arrival):
                try receive(bytes, arrival: arrival)
            case .event(let event, let time):
                now = max(now, time)
                handle(event, at: time)
            case .idle(let time):
                try tick(time)
            case .caption(let caption):
                // On the source's clock, the media time: each job's outputs place it on theirs (`JobSlot`).
                let placed = placedOnSpeakerClock(caption)
                for (sink, _) in sinks { sink.add(caption: placed) }
            case .captionsExpected:
                captionsExpected = true
                for (sink, _) in sinks { sink.expectCaptions() }
            case .ended:
                break loop
            }
            if composer.mediaEnd - lastReport >= 0.5 {
                lastReport = composer.mediaEnd
                progress(currentProgress(duration: source.duration, since: started))
            }
        }
        try finish()
        progress(currentProgress(duration: source.duration, since: started))
    }

    /// A caption with the speaker's own times goes where this session put the speaker's audio:
    /// the wall clock the source placed it by can be a tenth of a second or more off, since each
    /// receiver estimates its own delay. A mapping that disagrees with the wall clock by seconds
    /// (a sender whose clock changed) is not trusted.
    func placedOnSpeakerClock(_ caption: Caption) -> Caption {
        guard let span = caption.senderClock,
              let start = receiver.clock.mediaTime(participant: caption.participantID, senderTime: span.lowerBound),
              abs(start - caption.start) < Self.speakerClockTrust
        else { return caption }
        var placed = caption
        placed.start = start
        placed.end = caption.end + (start - caption.start)
        return placed
    }

    static let speakerClockTrust = 2.0

    /// Handles one datagram that arrived at `arrival` (seconds on the source clock).
    public func receive(_ datagram: [UInt8], arrival: Double) throws {
        now = max(now, arrival)
        handle(receiver.receive(datagram, arrival: arrival))
        try tick(arrival)
    }

    /// The source clock reads `time`: time-outs in the receive path, feedback, and every output
    /// due by `time − playoutDelay`.
    public func tick(_ time: Double) throws {
        now = max(now, time)
        handle(receiver.poll(at: time))
        composer.extend(to: time - playoutDelay)
        for branch in branches { branch.composer.extend(to: time - playoutDelay) }
        decodeVideo(until: time - playoutDelay + RecordingPipeline.decodeAhead)
        try advanceAll(until: time - playoutDelay)
        if choosesLayers && time - layersCheckedAt >= 0.1 {
            layersCheckedAt = time
            chooseLayers(at: time)
        }
    }

    /// Steps each camera towards the layer its tile needs (`LayerChooser`).
    private func chooseLayers(at time: Double) {
        // The largest tile a camera has in any of the run's composites, with the room events
        // already here applied: a camera is asked for before the frame that shows it.
        let layouts = ([composer] + branches.map(\.composer)).compactMap { $0.anticipatedLayout() }
        if !layouts.isEmpty { layers.show(layouts, participants: Array(Set(cameraOwners.values))) }
        for step in layers.poll(now: time) {
            source?.requestCameraLayer(step.level, participantID: step.participantID)
            logger.info("asked for a camera layer", ["participantId": .string(step.participantID), "level": .string("\(step.level)"),
                                                     "cameras": .string(layers.summary.joined(separator: "; "))])
        }
    }

    /// A room event: receive paths are made or torn down now; the layout follows on the frame
    /// the event's time falls on.
    public func handle(_ received: RoomEvent, at time: Double) {
        guard let event = receiver.e2ee.admit(received) else { return }
        switch event {
        case .join(let participant):
            for track in participant.tracks { startReceiving(track, of: participant.id) }
        case .leave(let id):
            for track in receiver.tracks where track.participantID == id { stopReceiving(track.ssrc) }
        case .publish(let id, let track):
            startReceiving(track, of: id)
        case .unpublish(_, let ssrc):
            stopReceiving(ssrc)
        case .rename, .pin, .unpin, .activeSpeaker:
            break
        }
        composer.schedule(event, at: time)
        for branch in branches { branch.composer.schedule(event, at: time) }
        // A camera's first layer is asked for as soon as it is announced (and again when a
        // join shrinks the tiles): a live room's offer comes before its media, so the room can
        // start forwarding the layer the tile needs instead of the top one, whose pictures
        // would be decoded until a step down (`LayerChooser`).
        let announcesCamera = switch event {
        case .join: true
        case .publish(_, let track): track.kind == .video
        default: false
        }
        if choosesLayers && announcesCamera { chooseLayers(at: time) }
        logger.debug("room event", ["event": .string("\(event)"), "at": .double(time)])
    }

    /// Ends the recording: everything still buffered is released, composited, encoded and
    /// written, and every sink finishes its file.
    public func finish() throws {
        handle(receiver.finish(at: now))
        // The frames still waiting are decoded as the output reaches them, not all at once.
        var time = composer.nextOutputTime
        while let last = undecoded.values.compactMap({ $0.last?.mediaTime }).max(),
              let next = undecoded.values.compactMap({ $0.first?.mediaTime }).min()
        {
            time = max(time, next - RecordingPipeline.decodeAhead)
            decodeVideo(until: time + RecordingPipeline.decodeAhead)
            try advanceAll(until: min(time, last))
            time += 1 / Double(composer.framesPerSecond)
        }
        try composer.finish()
        for branch in branches {
            branch.composer.follow(speakers: composer.detector)
            try branch.composer.finish()
        }
        speakerTracks?.finish()
        if choosesLayers { logger.info("camera layers at the end", ["cameras": .string(layers.summary.joined(separator: "; "))]) }
        if composer.latePictures > 0 {
            logger.warning("pictures came after their output frame and were shown late",
                           ["pictures": .of(composer.latePictures), "worstMilliseconds": .double((composer.worstPictureLateness * 1000).rounded())])
        }
        if let videoEncoder { try deliver(videoEncoder.finish()) }
        for branch in branches { try flush(branch) }
        for (index, rung) in rungs.enumerated() { try deliver(rung.encoder.finish(), rendition: index + 1) }
        rungs = []
        try deliver(audioEncoder.finish())
        // x264's pictures and the decoders are the bulk of a job's memory: let them go before
        // the outputs finish (the MP4's faststart rewrite allocates), so the peak is not their sum.
        videoEncoder = nil
        videoDecoders.removeAll()
        audioDecoders.removeAll()
        MemoryTuning.releaseFreeMemory()
        var firstError: Error?
        for (sink, _) in sinks {
            do {
                try sink.finish()
            } catch {
                logger.error("output failed to finish", ["output": .string(sink.name), "error": .string("\(error)")])
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    // MARK: - Receive paths

    private func startReceiving(_ track: TrackDescription, of participantID: String) {
        let info = TrackInfo(track, participantID: participantID)
        do {
            if track.kind.isVideo {
                guard config.mode == .videoAndAudio else { return }
                endingVideo.remove(track.ssrc)
                if track.kind == .video { cameraOwners[track.ssrc] = participantID }
                if videoDecoders[track.ssrc] == nil { videoDecoders[track.ssrc] = try VideoTrackDecoder(codec: track.codec) }
            } else if audioDecoders[track.ssrc] == nil {
                audioDecoders[track.ssrc] = try AudioTrackDecoder(channels: track.channels)
            }
            // A new video track's first frame must be a keyframe: the receiver asks for one now
            // rather than waiting for the sender's next.
            handle(receiver.add(info, at: now))
        } catch {
            logger.error("cannot decode a track; it is left out", ["ssrc": .of(Int(track.ssrc)), "participantId": .string(participantID),
                                                                     "error": .string("\(error)")])
        }
    }

    private func stopReceiving(_ ssrc: UInt32) {
        handle(receiver.remove(ssrc: ssrc, at: now))
        cameraOwners[ssrc] = nil
        // What arrived before the end is still shown until the end applies: decoded as it falls
        // due, like the rest.
        if undecoded[ssrc]?.isEmpty == false { endingVideo.insert(ssrc) } else { videoDecoders[ssrc] = nil }
        audioDecoders[ssrc] = nil
    }

    private func handle(_ outputs: [SubscriberOutput]) {
        for output in outputs {
            switch output {
            case .frame(let frame):
                if videoDecoders[frame.track.ssrc] != nil {
                    undecoded[frame.track.ssrc, default: []].append(frame)
                } else if let decoder = audioDecoders[frame.track.ssrc] {
                    for chunk in decoder.decode(frame) { composer.add(audio: chunk, ssrc: frame.track.ssrc) }
                }
            case .undecryptable:
                // Counted by the gate; the receiver asked for a keyframe.
                break
            case .feedback(let feedback):
                source?.send(feedback)
            case .participantLeft(let id, let time):
                // Every track said BYE (RFC 3550 §6.6): they have gone.
                handle(.leave(participantID: id), at: time)
            }
        }
    }

    /// Decodes every waiting video frame up to the last one (in decode order) whose media time
    /// is at most `limit`, so a frame shown before one decoded earlier (H.264 B-frames) is
    /// decoded in time too.
    private func decodeVideo(until limit: Double) {
        for (ssrc, frames) in undecoded {
            guard let last = frames.lastIndex(where: { $0.mediaTime <= limit }) else { continue }
            if let decoder = videoDecoders[ssrc] {
                for frame in frames[...last] {
                    let pictures = decoder.decode(frame)
                    if !pictures.isEmpty { receiver.pictureDecoded(ssrc: ssrc) }
                    if let owner = cameraOwners[ssrc], let last = pictures.last {
                        layers.decoded(participantID: owner, width: last.width, height: last.height)
                    }
                    for picture in pictures {
                        composer.add(picture: picture, ssrc: ssrc)
                        for branch in branches { branch.composer.add(picture: picture, ssrc: ssrc) }
                    }
                    if decoder.needsKeyframe && !endingVideo.contains(ssrc) { handle(receiver.keyframeNeeded(ssrc: ssrc, at: now)) }
                }
            }
            undecoded[ssrc] = last + 1 == frames.count ? nil : Array(frames[(last + 1)...])
            if undecoded[ssrc] == nil && endingVideo.remove(ssrc) != nil { videoDecoders[ssrc] = nil }
        }
    }

    /// Whether anything takes composite `branch`'s next picture (0: the main one): a sink of
    /// the whole run (a ladder's rung; any sink of a pipeline that carries no jobs), a job that
    /// shows it and is not paused (`JobSlot.takesVideo`), or a job's own want (`wantsPicture`).
    /// What nothing takes is neither drawn nor encoded: a paused recording alone costs its
    /// decoders and its sound, not its 720p encode.
    func takesPictures(of branch: Int) -> Bool {
        var carriesJobs = false
        for (sink, _) in sinks {
            guard let slot = sink as? JobSlot else {
                if branch == 0 { return true }
                continue
            }
            carriesJobs = true
            if slot.takesVideo(of: branch) { return true }
        }
        if !carriesJobs && branch == 0 { return true }
        return wantsPicture?(branch) ?? false
    }

    /// Hands packets to their sinks: audio to all, video of the main composite's `rendition` to
    /// the sinks of that rendition, and each job's slot the video of the composite it shows
    /// (`branch`: 0, the main one).
    func deliver(_ packets: [EncodedPacket], rendition: Int = 0, branch: Int = 0) throws {
        for packet in packets {
            packetsWritten += 1
            bytesWritten += Int64(packet.data.count)
            for (sink, wanted) in sinks {
                if packet.stream == .audio {
                    try sink.write(packet)
                } else if let slot = sink as? JobSlot {
                    if rendition == 0 { try slot.write(packet, branch: branch) }
                } else if wanted == rendition && branch == 0 {
                    try sink.write(packet)
                }
            }
        }
    }

    private func currentProgress(duration: Double?, since started: Date) -> Progress {
        let produced = outputMediaTime
        let elapsed = max(1e-6, Date().timeIntervalSince(started))
        return Progress(mediaTime: produced, duration: duration, speed: produced / elapsed, videoFrames: outputFrames,
                        bytesWritten: bytesWritten)
    }
}
