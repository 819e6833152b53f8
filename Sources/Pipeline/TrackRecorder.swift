import Foundation
import Ingest
import JobSpec
import Log
import Media
import MediaSource
import Outputs
import Subscriber

/// A per-participant recording (`config.mode: "tracks"`, issue 26 item 5): every participant's
/// tracks written as they arrived, one file per track, with a manifest that places the files on
/// the room's clock. No decoder, compositor or encoder runs:
///
///     MediaSource (fixture or room) → SubscriberSession (RTP, jitter buffer, media clock, E2EE,
///       keyframe and report policy) → TrackFile per track (WebM or Matroska) + TrackManifest
///
/// A track's file starts at its first frame (a video track's first keyframe: the session asks
/// for one when the track starts) and ends at its unpublish or its participant's leave; a track
/// published again is a new file. A video frame after a loss the jitter buffer gave up on is
/// not written until the next keyframe, which is asked for, so no file holds a picture that
/// refers to one it lacks. A file that cannot be written (a full disk) ends; the others go on.
///
/// Runs on the calling thread, like `RecordingPipeline`; time is the source's clock.
public final class TrackRecorder {
    public struct Progress: Sendable {
        /// The room's clock: how long the recording has run.
        public var mediaTime: Double
        public var duration: Double?
        public var framesWritten: Int64
        public var bytesWritten: Int64
        public var openFiles: Int
    }

    public let directory: String
    /// The manifest as last written.
    public private(set) var manifest: TrackManifest
    private let receiver: SubscriberSession
    private let logger: Logger
    private var source: (any MediaSource)?
    /// Tracks being received and their file, once one is open.
    private var tracks: [UInt32: Recording] = [:]
    private var names: [String: String] = [:]
    private var usedFileNames = Set<String>()
    /// The source clock's latest reading.
    public private(set) var now = 0.0
    public private(set) var framesWritten: Int64 = 0
    public private(set) var bytesWritten: Int64 = 0
    /// Video frames left out while their track waited for a keyframe.
    public private(set) var framesSkipped = 0
    private var manifestWrittenAt = -Double.infinity

    /// How often a growing recording's manifest is rewritten (its files' `end`, `frames`).
    public static let manifestInterval = 2.0

    private struct Recording {
        var info: TrackInfo
        var file: TrackFile?
        /// The manifest's entry for the file.
        var entry: Int?
        /// A video track waits for a keyframe before it writes (at its start, after a loss).
        var needsKeyframe: Bool
        /// The file failed: nothing more of this track is written until it is published again.
        var failed = false
        /// Where the file's time is counted from: an RTP timestamp and its time in the file.
        var anchor: (rtpTimestamp: Int64, fileTime: Double)?
        /// Where the room's clock places the file's start now: the latest frame's place less
        /// its time in the file. The first frame's place may come from before the sender's
        /// first report (each stream's own least delay), which the clock then slews away from;
        /// the manifest takes this, so a participant's files line up once the report is in.
        var placedStart: Double?
    }

    /// How far a frame's RTP time may stray from its room-clock time (both from the file's
    /// start) before the file's time follows the room's again: a sender that restarted its
    /// timestamps, not clock drift (tens of parts per million).
    static let rtpStray = 1.0

    public init(directory: String, e2ee: E2EEKeys?, roomID: String?, startedAt: Date = Date(), logger: Logger = Logger(label: "pipeline")) throws {
        self.directory = directory
        self.logger = logger
        receiver = SubscriberSession(e2ee: E2EEGate(keys: e2ee, logger: logger))
        manifest = TrackManifest(roomId: roomID, startedAt: startedAt)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try writeManifest()
    }

    /// Whether anyone publishes a track the recording receives (for the idle timeout).
    public var isPublishing: Bool { !receiver.tracks.isEmpty }

    /// Records a source until it ends or `shouldStop` says so, then finishes every file.
    /// `progress` is called about every half second of the room's clock.
    public func run(_ source: any MediaSource, progress: (Progress) -> Void = { _ in }, shouldStop: () -> Bool = { false }) throws {
        self.source = source
        defer { self.source = nil }
        for participant in source.participants { handle(.join(participant), at: 0) }
        var lastReport = -1.0
        loop: while !shouldStop() {
            switch source.next(until: now + 0.1) {
            case .datagram(let bytes, let arrival):
                now = max(now, arrival)
                handle(receiver.receive(bytes, arrival: arrival))
            case .event(let event, let time):
                now = max(now, time)
                handle(event, at: time)
            case .idle(let time):
                now = max(now, time)
                handle(receiver.poll(at: time))
            case .caption, .captionsExpected:
                break
            case .ended:
                break loop
            }
            if now - manifestWrittenAt >= TrackRecorder.manifestInterval { try? writeManifest() }
            if now - lastReport >= 0.5 {
                lastReport = now
                progress(currentProgress(duration: source.duration))
            }
        }
        try finish()
        progress(currentProgress(duration: source.duration))
    }

    /// A room event: a track's receive path starts or ends (and with it its file).
    public func handle(_ received: RoomEvent, at time: Double) {
        guard let event = receiver.e2ee.admit(received) else { return }
        switch event {
        case .join(let participant):
            names[participant.id] = participant.name
            for track in participant.tracks { startReceiving(track, of: participant.id) }
        case .leave(let id):
            for track in receiver.tracks where track.participantID == id { stopReceiving(track.ssrc) }
        case .publish(let id, let track):
            startReceiving(track, of: id)
        case .unpublish(_, let ssrc):
            stopReceiving(ssrc)
        case .rename(let id, let name):
            names[id] = name
        case .pin, .unpin, .activeSpeaker:
            break
        }
        logger.debug("room event", ["event": .string("\(event)"), "at": .double(time)])
    }

    /// Ends the recording: what the receive path still holds is written, every file finished
    /// and the manifest marked complete.
    public func finish() throws {
        handle(receiver.finish(at: now))
        for ssrc in tracks.keys.sorted() { close(ssrc) }
        tracks.removeAll()
        manifest.complete = true
        try writeManifest()
        if framesSkipped > 0 { logger.info("video frames waited for a keyframe and were left out", ["frames": .of(framesSkipped)]) }
    }

    private func currentProgress(duration: Double?) -> Progress {
        Progress(mediaTime: now, duration: duration, framesWritten: framesWritten, bytesWritten: bytesWritten,
                 openFiles: tracks.values.filter { $0.file != nil }.count)
    }

    // MARK: - Tracks

    private func startReceiving(_ track: TrackDescription, of participantID: String) {
        let info = TrackInfo(track, participantID: participantID)
        if let existing = tracks[track.ssrc], existing.info == info { return }
        close(track.ssrc)
        tracks[track.ssrc] = Recording(info: info, needsKeyframe: track.kind.isVideo)
        handle(receiver.add(info, at: now))
    }

    private func stopReceiving(_ ssrc: UInt32) {
        // The frames it still holds are written first.
        handle(receiver.remove(ssrc: ssrc, at: now))
        close(ssrc)
        tracks[ssrc] = nil
    }

    private func handle(_ outputs: [SubscriberOutput]) {
        for output in outputs {
            switch output {
            case .frame(let frame):
                write(frame)
            case .undecryptable(let track):
                // The gate counted it and the session asked for a keyframe; the file waits for it.
                if track.kind.isVideo { tracks[track.ssrc]?.needsKeyframe = true }
            case .feedback(let feedback):
                source?.send(feedback)
            case .participantLeft(let id, let time):
                handle(.leave(participantID: id), at: time)
            }
        }
    }

    private func write(_ frame: EncodedFrame) {
        let ssrc = frame.track.ssrc
        guard var recording = tracks[ssrc], !recording.failed else { return }
        let video = recording.info.kind.isVideo
        if video && frame.lostBefore > 0 && !frame.isKeyframe {
            // What follows a lost frame refers to it: wait for a keyframe, and ask for one.
            recording.needsKeyframe = true
            handle(receiver.keyframeNeeded(ssrc: ssrc, at: now))
        }
        if video && recording.needsKeyframe {
            guard frame.isKeyframe else {
                framesSkipped += 1
                tracks[ssrc] = recording
                return
            }
            recording.needsKeyframe = false
        }
        do {
            if recording.file == nil {
                let name = fileName(for: recording.info)
                let file: TrackFile
                do {
                    file = try TrackFile(path: directory + "/" + name, codec: recording.info.codec, channels: recording.info.channels,
                                         firstFrame: frame.data, start: frame.mediaTime)
                } catch where error.fault == .input {
                    // A keyframe that cannot start a file (an H.264 IDR without its parameter
                    // sets, which some senders repeat only now and then): the next one may.
                    logger.warning("a keyframe could not start a track's file; waiting for the next",
                                   ["participantId": .string(recording.info.participantID), "error": .string(error.message)])
                    if video {
                        recording.needsKeyframe = true
                        tracks[ssrc] = recording
                        handle(receiver.keyframeNeeded(ssrc: ssrc, at: now))
                    }
                    return
                }
                usedFileNames.insert(name)
                // The session's start is over: it stops asking for the first keyframe.
                if video { receiver.pictureDecoded(ssrc: ssrc) }
                recording.file = file
                recording.entry = manifest.tracks.count
                manifest.tracks.append(entry(for: recording, file: file))
                logger.info("a track's file started", ["participantId": .string(recording.info.participantID),
                                                      "kind": .string(recording.info.kind.rawValue), "file": .string(file.path),
                                                      "start": .double(frame.mediaTime)])
                tracks[ssrc] = recording
                try? writeManifest()
            }
            if let file = recording.file {
                let time = fileTime(of: frame, in: &recording, file: file)
                try file.write(frame.data, at: time, keyframe: frame.isKeyframe)
                recording.placedStart = frame.mediaTime - time
                framesWritten += 1
                bytesWritten += Int64(frame.data.count)
            }
            tracks[ssrc] = recording
        } catch {
            logger.error("a track's file failed; the others go on", ["participantId": .string(recording.info.participantID),
                                                                     "kind": .string(recording.info.kind.rawValue), "error": .string("\(error)")])
            tracks[ssrc] = recording
            close(ssrc)
            tracks[ssrc]?.failed = true
        }
    }

    /// Where a frame falls in its file: its RTP time since the file's first frame, on the
    /// sender's own clock. The room's clock slews to follow the sender's (`MediaClock`), which a
    /// composite needs and a file must not have: decoded audio plays sample after sample, so
    /// timestamps squeezed by a slew would put the sound late against the picture. The file's
    /// start in the manifest is where the room's clock places it now (`placedStart`), which
    /// lines the files of a participant and of the room up.
    private func fileTime(of frame: EncodedFrame, in recording: inout Recording, file: TrackFile) -> Double {
        let roomTime = frame.mediaTime - file.start
        let clockRate = Double(max(1, recording.info.clockRate))
        if let anchor = recording.anchor {
            let time = anchor.fileTime + Double(frame.rtpTimestamp - anchor.rtpTimestamp) / clockRate
            if abs(time - roomTime) <= TrackRecorder.rtpStray { return time }
            logger.warning("a track's RTP time jumped; its file follows the room's clock from here",
                           ["participantId": .string(recording.info.participantID), "kind": .string(recording.info.kind.rawValue),
                            "jumpSeconds": .double(time - roomTime)])
        }
        // Never back before what the file holds: frames squeezed a millisecond apart would
        // follow (`TrackFile.write`).
        let time = recording.anchor == nil ? roomTime : max(roomTime, file.duration + 0.001)
        recording.anchor = (frame.rtpTimestamp, time)
        return time
    }

    /// Finishes a track's file and notes its end in the manifest.
    private func close(_ ssrc: UInt32) {
        guard var recording = tracks[ssrc], let file = recording.file else { return }
        var finished = true
        do {
            try file.finish()
        } catch {
            finished = false
            logger.error("a track's file could not be finished", ["file": .string(file.path), "error": .string("\(error)")])
        }
        if let index = recording.entry {
            manifest.tracks[index] = entry(for: recording, file: file)
            // One that could not be finished is left for the repair a takeover runs.
            manifest.tracks[index].complete = finished
        }
        recording.file = nil
        recording.entry = nil
        recording.anchor = nil
        recording.placedStart = nil
        recording.needsKeyframe = recording.info.kind.isVideo
        tracks[ssrc] = recording
        try? writeManifest()
    }

    private func entry(for recording: Recording, file: TrackFile) -> TrackManifest.Track {
        let info = recording.info
        let start = recording.placedStart ?? file.start
        return TrackManifest.Track(participantId: info.participantID, name: names[info.participantID] ?? info.participantID, kind: info.kind.rawValue,
                                   codec: info.codec.rawValue, file: URL(fileURLWithPath: file.path).lastPathComponent, start: start,
                                   end: start + file.duration, frames: file.frames, bytes: file.bytesWritten, width: file.pictureSize?.width,
                                   height: file.pictureSize?.height, channels: info.kind == .audio ? info.channels : nil, complete: false)
    }

    /// `<participant>-<kind>-<n>.webm`: the participant's ID with only letters, digits, `_` and
    /// `-` kept (it comes from the room), and `n` counting that track's files from 1.
    private func fileName(for info: TrackInfo) -> String {
        let safe = String(info.participantID.unicodeScalars.prefix(64).map { scalar in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "_" || scalar == "-" ? Character(scalar) : "_"
        })
        let stem = (safe.isEmpty ? "participant" : safe) + "-" + info.kind.rawValue
        var number = 1
        while usedFileNames.contains("\(stem)-\(number).\(TrackFile.fileExtension(for: info.codec))") { number += 1 }
        // Taken once the file opens (`usedFileNames`).
        return "\(stem)-\(number).\(TrackFile.fileExtension(for: info.codec))"
    }

    private func writeManifest() throws {
        for recording in tracks.values {
            guard let index = recording.entry, let file = recording.file else { continue }
            manifest.tracks[index] = entry(for: recording, file: file)
        }
        manifestWrittenAt = now
        try WholeFile.write(manifest.encoded(), to: directory + "/" + TrackManifest.fileName)
    }
}
