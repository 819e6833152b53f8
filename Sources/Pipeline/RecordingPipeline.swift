import Composite
import Decode
import Encode
import Fixture
import Foundation
import Ingest
import Log
import Media
import Outputs

/// The whole recording path, assembled in one place:
///
///     fixture/room → IngestSession (RTP, jitter buffer, media clock) → track decoders
///       → RoomComposer (layout, compositing, mixing, speaker detection, constant frame rate)
///       → VideoEncoder + AudioEncoder (once) → every PacketSink (MP4, HLS, RTMP)
///
/// It runs on the calling thread; the encoders use their own threads, and sinks that do network
/// I/O put a queue in front of themselves.
public final class RecordingPipeline: @unchecked Sendable {
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

    public let configuration: RecordingConfiguration
    public let composer: RoomComposer
    public let videoEncoder: VideoEncoder?
    public let audioEncoder: AudioEncoder
    private var session: IngestSession
    private var videoDecoders: [UInt32: VideoTrackDecoder] = [:]
    private var audioDecoders: [UInt32: AudioTrackDecoder] = [:]
    private var sinks: [any PacketSink] = []
    private let logger: Logger
    public private(set) var packetsWritten = 0
    public private(set) var bytesWritten: Int64 = 0

    /// The encoded streams, for building sinks before `run`.
    public var streams: StreamLayout {
        var streams: [StreamLayout.Stream] = []
        if let videoEncoder { streams.append(.init(kind: .video, parameters: videoEncoder.parameters)) }
        streams.append(.init(kind: .audio, parameters: audioEncoder.parameters))
        return StreamLayout(streams: streams)
    }

    public init(tracks: [TrackInfo], participants: [RoomComposer.Participant], events: [(at: Double, event: RoomComposer.RoomEvent)],
                configuration: RecordingConfiguration, logger: Logger = Logger(label: "pipeline")) throws
    {
        self.configuration = configuration
        self.logger = logger
        session = IngestSession(tracks: tracks)
        let text = configuration.mode == .videoAndAudio ? try TextRenderer() : nil
        audioEncoder = try AudioEncoder(bitrate: configuration.preset.audioBitrate)
        composer = try RoomComposer(configuration: configuration, participants: participants, events: events, text: text,
                                    audioBlock: audioEncoder.frameSize, audioStart: Int64(audioEncoder.primingSamples))
        videoEncoder = configuration.mode == .videoAndAudio ? try VideoEncoder(preset: configuration.preset) : nil
        for track in tracks {
            if track.kind.isVideo {
                if configuration.mode == .videoAndAudio { videoDecoders[track.ssrc] = try VideoTrackDecoder(codec: track.codec) }
            } else {
                audioDecoders[track.ssrc] = try AudioTrackDecoder(channels: track.channels)
            }
        }
        composer.onPicture = { [unowned self] picture, _ in
            guard let videoEncoder = self.videoEncoder else { return }
            try self.deliver(videoEncoder.encode(picture))
        }
        composer.onAudio = { [unowned self] samples, start in
            try self.deliver(self.audioEncoder.encode(interleaved: samples, startSample: start))
        }
    }

    /// A pipeline for a fixture's participants, tracks and events.
    public convenience init(fixture: Fixture, configuration: RecordingConfiguration) throws {
        let participants = fixture.manifest.participants.map { participant in
            RoomComposer.Participant(id: participant.id, name: participant.name,
                                     hasCameraTrack: participant.tracks.contains { $0.kind == .video },
                                     hasShareTrack: participant.tracks.contains { $0.kind == .share })
        }
        let events: [(at: Double, event: RoomComposer.RoomEvent)] = fixture.manifest.events.map { event in
            switch event.type {
            case .pin: (event.at, .pin(event.participantID))
            case .unpin: (event.at, .unpin(event.participantID))
            case .activeSpeaker: (event.at, .activeSpeaker(event.participantID))
            }
        }
        try self.init(tracks: fixture.trackInfos, participants: participants, events: events, configuration: configuration,
                      logger: Logger(label: "pipeline", fields: ["fixture": .string(fixture.directory)]))
    }

    public func add(sink: any PacketSink) {
        sinks.append(sink)
    }

    /// Replays a fixture through the pipeline and finishes every sink. `progress` is called
    /// about every half second of media; `shouldStop` ends the recording early (a stop request).
    public func run(_ replay: FixtureReplay, progress: (Progress) -> Void = { _ in }, shouldStop: () -> Bool = { false }) throws {
        let started = Date()
        var failure: Error?
        var lastReport = -1.0
        replay.run { _, packet in
            do {
                try receive(packet.payload, arrival: packet.arrival)
                if composer.mediaEnd - lastReport >= 0.5 {
                    lastReport = composer.mediaEnd
                    progress(currentProgress(duration: replay.duration, since: started))
                }
            } catch {
                failure = error
                return false
            }
            return !shouldStop()
        }
        if let failure { throw failure }
        try finish()
        progress(currentProgress(duration: replay.duration, since: started))
    }

    /// Handles one datagram that arrived at `arrival` (seconds on the session clock).
    public func receive(_ datagram: [UInt8], arrival: Double) throws {
        handle(session.receive(datagram, arrival: arrival))
        handle(session.poll(at: arrival))
        try composer.advance(until: arrival - configuration.playoutDelay)
    }

    /// Ends the recording: everything still buffered is released, composited, encoded and
    /// written, and every sink finishes its file.
    public func finish() throws {
        handle(session.finish())
        try composer.finish()
        if let videoEncoder { try deliver(videoEncoder.finish()) }
        try deliver(audioEncoder.finish())
        var firstError: Error?
        for sink in sinks {
            do {
                try sink.finish()
            } catch {
                logger.error("output failed to finish", ["output": .string(sink.name), "error": .string("\(error)")])
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    private func handle(_ events: [IngestEvent]) {
        for event in events {
            switch event {
            case .frame(let frame):
                if let decoder = videoDecoders[frame.track.ssrc] {
                    for picture in decoder.decode(frame) {
                        composer.add(picture: picture, participant: frame.track.participantID, isShare: frame.track.kind == .share)
                    }
                } else if let decoder = audioDecoders[frame.track.ssrc] {
                    for chunk in decoder.decode(frame) { composer.add(audio: chunk, participant: frame.track.participantID) }
                }
            case .participantJoined(let id, let time):
                composer.participantJoined(id, at: time)
            case .participantLeft(let id, let time):
                composer.participantLeft(id, at: time)
            case .sendNack, .requestKeyframe:
                // A fixture has nobody to ask; a live room sends these as RTCP.
                break
            }
        }
    }

    private func deliver(_ packets: [EncodedPacket]) throws {
        for packet in packets {
            packetsWritten += 1
            bytesWritten += Int64(packet.data.count)
            for sink in sinks { try sink.write(packet) }
        }
    }

    private func currentProgress(duration: Double?, since started: Date) -> Progress {
        let produced = configuration.mode == .audio
            ? Double(composer.audioSamples) / Double(AudioChunk.sampleRate)
            : Double(composer.videoFrames) / Double(composer.framesPerSecond)
        let elapsed = max(1e-6, Date().timeIntervalSince(started))
        return Progress(mediaTime: produced, duration: duration, speed: produced / elapsed, videoFrames: composer.videoFrames,
                        bytesWritten: bytesWritten)
    }
}
