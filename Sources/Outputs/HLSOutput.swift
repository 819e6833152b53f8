import Encode
import Foundation
import HLS
import LibAV
import Media

/// HLS with fMP4 (CMAF) segments: `init.mp4`, `seg_NNNNN.m4s`, `index.m3u8` and `live.m3u8`.
/// docs/OUTPUTS.md says why fMP4 rather than MPEG-TS.
///
/// - A segment starts on a keyframe: it is cut at the first video keyframe at least
///   `segmentDuration` after the segment began (audio-only: by time).
/// - A segment is written to a temporary name and renamed, and only then listed: a playlist
///   never names a segment that is not whole on disk (one missing segment is fatal in Chromium).
/// - Playlists are written to a temporary file and renamed, so a reader never sees half of one.
/// - With `lowLatency`, each segment is also published as it is made, in parts of at most the
///   part target (`seg_NNNNN_partK.m4s`, cut before the video frame that would make one longer):
///   `live.m3u8` lists them with the LL-HLS tags (`HLSPlaylist.lowLatencyLive`) and is rewritten
///   at every part. A segment's bytes are its parts' bytes, one after another. `index.m3u8` and
///   everything mirrored stay ordinary HLS; part files are removed once their segment has left
///   the live window.
/// - Nothing is published until there are `minimumSegments` (3) segments: Chromium's native HLS
///   rejects a live playlist with fewer, for good, and RFC 8216 §6.3.3 gives clients the same
///   hold-back. That moment is when the stream becomes playable (`onPlayable`; with a mirror,
///   once the mirror has stored those playlists, since players read them there). With
///   `lowLatency`, those first segments are a part each: one is cut at the first keyframe that
///   a part would not hold (audio-only: by time), and the encoder is asked for keyframes a part
///   target apart at the start (`startKeyframes`), so the stream is playable after about a
///   second of media, not three segments' six.
/// - A `mirror` gets every file as it becomes whole, in that order (HLS to a bucket, live).
/// - With `captions`, the room's live transcription is a WebVTT rendition beside the video
///   (`HLSCaptionTrack`): `captions_NNNNN.vtt` per segment, `captions.m3u8` and
///   `captions_live.m3u8`, and the multivariant playlists `master.m3u8` and `live_master.m3u8`
///   that players open to offer the captions. A segment's captions are written `captionLag`
///   segments after it (speech is transcribed once it ends); players stay three segments behind
///   the live edge, so the captions are there before the picture is shown.
// @unchecked Sendable: confined to its QueuedSink's output thread; other threads only get files through `mirror`
public final class HLSOutput: PacketSink, @unchecked Sendable {
    public let directory: String
    public var name: String { "hls:\(directory)" }
    public let segmentDuration: Double
    public let window: Int
    public let minimumSegments: Int
    /// Partial segments for low-latency players; nil: ordinary HLS only.
    public private(set) var lowLatency: HLSLowLatency?
    /// With captions: how far behind low-latency players are held once the room's live
    /// transcription is on (`expectCaptions()`, or the first caption).
    private let captionHoldBack: Double?
    private let muxer: FragmentedMP4Muxer
    private let clock: @Sendable () -> Date
    private var segments: [HLSSegment] = []
    private var segmentStart: Double?
    /// Low latency: where the part being made began, whether its first video frame is a
    /// keyframe, the parts of the segment being made and their bytes, and the parts of whole
    /// segments that are still on disk.
    private var partStart: Double?
    private var partIndependent = false
    private var partHasVideo = false
    private var edgeParts: [HLSPart] = []
    private var edgeBytes: [UInt8] = []
    private var recentParts: [HLSPart] = []
    /// A wall-clock time and the media time it goes with: each segment's program date-time
    /// follows from its media time, live or rendered offline. A live room's (`wallClockAtZero`),
    /// else the wall clock when the first segment began.
    private var epoch: (wallClock: Date, mediaTime: Double)?
    public private(set) var isPublished = false
    public private(set) var bytesWritten: Int64 = 0
    /// Called once, when the playlists are first published.
    public var onPlayable: @Sendable () -> Void = {}
    /// The ladder this output is rung `rung` of (`config.renditions`): its low-latency playlist
    /// reports the others' last part, and tells the ladder its own.
    public var ladder: (ladder: HLSLadder, rung: Int)?

    /// The keyframes a low-latency stream's first segments want from the encoder: one every part
    /// target (in whole pictures, no further apart), `count` of them after the first picture;
    /// nil for ordinary HLS.
    public static func startKeyframes(lowLatency: HLSLowLatency?, minimumSegments: Int = 3) -> (interval: Double, count: Int)? {
        lowLatency.map { ($0.partTarget, max(1, minimumSegments)) }
    }

    /// Whether the segment that began at `start` is long enough to end before `packet` (at
    /// `time`), at a keyframe with video: after `segmentDuration`; at a keyframe of the
    /// encode's cadence (`startsGroup`) after a quarter of it, so a stream whose segments began
    /// off the cadence (a low-latency stream's short first segments, a job that joined a shared
    /// run between keyframes) gets back on it with one shorter segment, never a longer one; or,
    /// for the first segments of a low-latency stream until it is published, when the packet
    /// would make it longer than a part (the rule that cuts parts, so each of them is one part).
    private func segmentIsDue(before packet: EncodedPacket, at time: Double, start: Double) -> Bool {
        guard let lowLatency, !isPublished, segments.count < minimumSegments else {
            return time - start >= segmentDuration - 0.001 || packet.startsGroup && time - start >= segmentDuration / 4
        }
        return time + muxer.seconds(packet.duration, of: packet.stream) - start > lowLatency.declaredPartTarget + 0.0001
    }
    /// Where every file also goes, in the order it is written (a bucket for a CDN).
    public let mirror: HLSFileMirror?

    public static let indexName = "index.m3u8"
    public static let liveName = "live.m3u8"
    public static let masterName = "master.m3u8"
    public static let liveMasterName = "live_master.m3u8"
    public static let captionsName = "captions.m3u8"
    public static let liveCaptionsName = "captions_live.m3u8"

    private let streams: StreamLayout
    private var captions: HLSCaptionTrack?
    public let captionLag: Int
    /// The captions' language (BCP 47), for the rendition's `LANGUAGE`.
    public let captionLanguage: String
    private var captionSegments: [HLSSegment] = []
    /// Each segment's media start and size in bits (for the captions' spans and `BANDWIDTH`).
    private var segmentSpans: [(start: Double, bits: Double)] = []

    public init(directory: String, streams: StreamLayout, segmentDuration: Double = 2, window: Int = 6, minimumSegments: Int = 3,
                lowLatency: HLSLowLatency? = nil, mirror: HLSFileMirror? = nil, captions: Bool = false, captionLag: Int = 1, captionLanguage: String = "en",
                wallClockAtZero: Date? = nil, clock: @escaping @Sendable () -> Date = { Date() }) throws
    {
        guard segmentDuration >= 0.5, window >= minimumSegments, minimumSegments >= 1 else {
            throw OutputError(fault: .input, output: "hls:\(directory)",
                              message: "segments must be at least 0.5 s and the window at least \(minimumSegments) segments")
        }
        if let lowLatency {
            guard lowLatency.partTarget >= HLSLowLatency.shortestPartTarget, lowLatency.partTarget <= HLSLowLatency.longestPartTarget,
                  lowLatency.partTarget <= segmentDuration
            else {
                throw OutputError(fault: .input, output: "hls:\(directory)",
                                  message: "parts must be \(HLSLowLatency.shortestPartTarget) to \(HLSLowLatency.longestPartTarget) s and no longer than a segment")
            }
        }
        // Captions are written `captionLag` segments after their video, and speech is
        // transcribed once it ends: while the room's transcription is on, low-latency players
        // stay a segment more behind than that. Without it they stay a few parts behind.
        captionHoldBack = captions ? Double(max(0, captionLag) + 1) * segmentDuration : nil
        self.lowLatency = lowLatency
        // A live room's media time is its wall clock less a constant: program dates say when the
        // room had each picture, not when it reached this output (about the playout delay later).
        epoch = wallClockAtZero.map { ($0, 0) }
        self.directory = directory
        self.segmentDuration = segmentDuration
        self.window = window
        self.minimumSegments = minimumSegments
        self.clock = clock
        self.mirror = mirror
        self.streams = streams
        self.captions = captions ? HLSCaptionTrack() : nil
        self.captionLag = max(0, captionLag)
        self.captionLanguage = captionLanguage
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        muxer = try FragmentedMP4Muxer(streams: streams)
        try writeAtomically(muxer.initialization, to: HLSPlaylist.mapURI)
    }

    /// The segments written so far.
    public var writtenSegments: [HLSSegment] { segments }

    public func write(_ packet: EncodedPacket) throws {
        if let failure = mirror?.failure {
            throw OutputError(fault: .destination, output: name, message: "the bucket mirror failed: \(failure)")
        }
        let time = muxer.time(of: packet)
        if let start = segmentStart {
            let due = segmentIsDue(before: packet, at: time, start: start)
            let cut = muxer.hasVideo ? packet.stream == .video && packet.isKeyframe && due : due
            if cut {
                try closeSegment(end: time)
            } else if let partStart, let lowLatency, packet.stream == (muxer.hasVideo ? .video : .audio),
                      time + muxer.seconds(packet.duration, of: packet.stream) - partStart > lowLatency.declaredPartTarget + 0.0001
            {
                try closePart(end: time)
                if isPublished { try publishLive() }
            }
        }
        if segmentStart == nil {
            segmentStart = time
            if epoch == nil { epoch = (clock(), time) }
        }
        if lowLatency != nil {
            if partStart == nil {
                partStart = time
                partIndependent = !muxer.hasVideo
                partHasVideo = false
            }
            // A part is independent when its first picture is a keyframe.
            if packet.stream == .video && !partHasVideo {
                partIndependent = packet.isKeyframe
                partHasVideo = true
            }
        }
        try muxer.write(packet)
        bytesWritten += Int64(packet.data.count)
    }

    /// Keeps a caption for the segments it falls in (dropped when there are no captions).
    public func add(caption: Caption) {
        expectCaptions()
        captions?.add(caption)
    }

    /// From the next playlist on, `PART-HOLD-BACK` leaves the captions time to be written. A
    /// player that started before keeps its place (hls.js only ever catches up), and may miss
    /// captions of speech said before it was held further back.
    public func expectCaptions() {
        guard let captionHoldBack, let current = lowLatency, current.minimumHoldBack < captionHoldBack else { return }
        lowLatency?.minimumHoldBack = captionHoldBack
    }

    /// Captions dropped so far (a flood, or too late to show).
    public var droppedCaptions: Int { captions?.dropped ?? 0 }

    /// Writes the last segment and ends the playlists. The mirror is finished whatever happens
    /// (a ladder's shared one stops when its last rendition has finished).
    public func finish() throws {
        do {
            try finishFiles()
        } catch {
            try? mirror?.finish()
            throw error
        }
        do {
            try mirror?.finish()
        } catch {
            throw OutputError(fault: .destination, output: name, message: "the bucket mirror failed: \(error)")
        }
    }

    private func finishFiles() throws {
        let last = try cutSegmentBytes(end: muxer.lastTime)
        if let start = segmentStart, !last.isEmpty {
            try storeSegment(last, start: start, duration: max(0.001, muxer.lastTime - start))
        }
        try writeCaptionSegments(upTo: segments.count)
        segmentStart = nil
        // The muxer's trailer (an mfra index) belongs to no segment.
        _ = try muxer.finish()
        try publish(ended: true)
        // The ended playlists name no part: the finished stream is ordinary HLS.
        for part in recentParts { unlink(directory + "/" + part.uri) }
        recentParts = []
        if let ladder { ladder.ladder.ended(rung: ladder.rung) }
    }

    private func closeSegment(end: Double) throws {
        guard let start = segmentStart else { return }
        let bytes = try cutSegmentBytes(end: end)
        segmentStart = nil
        guard !bytes.isEmpty else { return }
        try storeSegment(bytes, start: start, duration: end - start)
        removeOldParts()
        if segments.count >= minimumSegments { try publish(ended: false) }
    }

    /// Ends the segment being made and returns its bytes: with parts, its last part is cut and
    /// the segment is all of its parts.
    private func cutSegmentBytes(end: Double) throws -> [UInt8] {
        guard lowLatency != nil else { return try muxer.cutFragment() }
        try closePart(end: end)
        let bytes = edgeBytes
        recentParts += edgeParts
        edgeBytes = []
        edgeParts = []
        return bytes
    }

    /// Ends the part being made, writes it and adds it to the segment being made.
    private func closePart(end: Double) throws {
        guard let start = partStart else { return }
        let bytes = try muxer.cutFragment()
        partStart = nil
        guard !bytes.isEmpty else { return }
        let part = HLSPart(sequence: segments.count, index: edgeParts.count, uri: HLSPart.uri(sequence: segments.count, index: edgeParts.count),
                           duration: max(0.001, end - start), independent: partIndependent)
        try writeAtomically(bytes, to: part.uri, mirrored: false)
        edgeBytes += bytes
        edgeParts.append(part)
    }

    /// Part files go three segments after their segment left the live window: by then their
    /// tags have been out of every playlist for at least three target durations (§6.2.2 asks
    /// that they stay that long), however short the window.
    private func removeOldParts() {
        let oldest = segments.count - window - 3
        while let part = recentParts.first, part.sequence < oldest {
            recentParts.removeFirst()
            unlink(directory + "/" + part.uri)
        }
    }

    private func storeSegment(_ bytes: [UInt8], start: Double, duration: Double) throws {
        let sequence = segments.count
        let uri = String(format: "seg_%05d.m4s", sequence)
        try writeAtomically(bytes, to: uri)
        let base = epoch ?? (clock(), start)
        segments.append(HLSSegment(sequence: sequence, uri: uri, duration: duration,
                                   programDateTime: base.wallClock.addingTimeInterval(start - base.mediaTime)))
        segmentSpans.append((start, Double(bytes.count * 8)))
        try writeCaptionSegments(upTo: segments.count - captionLag)
    }

    /// Writes the captions of every segment before `count` that has none yet: same sequence,
    /// duration and date as its video segment.
    private func writeCaptionSegments(upTo count: Int) throws {
        guard var track = captions else { return }
        while captionSegments.count < count {
            let video = segments[captionSegments.count]
            let start = segmentSpans[video.sequence].start
            let uri = String(format: "captions_%05d.vtt", video.sequence)
            try writeAtomically(Array(track.segment(start: start, end: start + video.duration).utf8), to: uri)
            captionSegments.append(HLSSegment(sequence: video.sequence, uri: uri, duration: video.duration, programDateTime: video.programDateTime))
        }
        captions = track
    }

    private func publish(ended: Bool) throws {
        let target = HLSPlaylist.targetDuration(nominal: segmentDuration, segments: segments)
        try writeAtomically(Array(HLSPlaylist.index(segments: segments, targetDuration: target, ended: ended).utf8),
                            to: HLSOutput.indexName, isPlaylist: true)
        let ordinaryLive = Array(HLSPlaylist.live(segments: segments, window: window, targetDuration: target, ended: ended).utf8)
        if lowLatency != nil && !ended {
            // Players here get the parts; the bucket (a CDN cannot hold requests) the ordinary playlist.
            try publishLive()
            mirror?.written(name: HLSOutput.liveName, bytes: ordinaryLive, isPlaylist: true)
        } else {
            try writeAtomically(ordinaryLive, to: HLSOutput.liveName, isPlaylist: true)
        }
        if captions != nil {
            try writeAtomically(Array(HLSPlaylist.captions(segments: captionSegments, window: nil, targetDuration: target, ended: ended).utf8),
                                to: HLSOutput.captionsName, isPlaylist: true)
            try writeAtomically(Array(HLSPlaylist.captions(segments: captionSegments, window: window, targetDuration: target, ended: ended).utf8),
                                to: HLSOutput.liveCaptionsName, isPlaylist: true)
            if !isPublished { try writeMultivariantPlaylists() }
        }
        if !isPublished {
            isPublished = true
            // Playable where players read it: in the bucket, for a mirrored stream. A ladder's
            // rung tells its ladder at once (its local multivariant playlists do not wait on
            // the bucket); the ladder reports playable once the bucket has those.
            if let mirror, ladder == nil { mirror.afterStored(onPlayable) } else { onPlayable() }
        }
    }

    /// Rewrites `live.m3u8` with the parts so far (low latency; not mirrored).
    private func publishLive() throws {
        guard let lowLatency else { return }
        let target = HLSPlaylist.targetDuration(nominal: segmentDuration, segments: segments)
        let base = epoch ?? (clock(), segmentStart ?? 0)
        let edge = HLSPlaylist.Edge(programDateTime: base.wallClock.addingTimeInterval((segmentStart ?? muxer.lastTime) - base.mediaTime),
                                    parts: edgeParts, nextPartURI: HLSPart.uri(sequence: segments.count, index: edgeParts.count))
        let text = HLSPlaylist.lowLatencyLive(segments: segments, parts: recentParts, edge: edge, window: window, targetDuration: target,
                                              lowLatency: lowLatency, renditionReports: ladder.map { $0.ladder.reports(besides: $0.rung) } ?? [])
        try writeAtomically(Array(text.utf8), to: HLSOutput.liveName, isPlaylist: true, mirrored: false)
        if let ladder {
            // The last part: of the segment being made, or else of the last whole one.
            let last = edgeParts.last ?? recentParts.last
            ladder.ladder.update(rung: ladder.rung, lastSequence: last?.sequence ?? max(0, segments.count - 1), lastPart: last?.index)
        }
    }

    /// `master.m3u8` and `live_master.m3u8`, once: the peak bit rate of the segments so far, the
    /// codecs, the picture size, and the captions.
    private func writeMultivariantPlaylists() throws {
        let peak = zip(segments, segmentSpans).map { $1.bits / max($0.duration, 0.001) }.max() ?? 0
        let codecs = streams.streams.compactMap(\.parameters.rfc6381Codec)
        let video = streams.streams.first { $0.kind == .video }?.parameters.size
        for (variant, captions, name) in [(HLSOutput.indexName, HLSOutput.captionsName, HLSOutput.masterName),
                                          (HLSOutput.liveName, HLSOutput.liveCaptionsName, HLSOutput.liveMasterName)]
        {
            let text = HLSPlaylist.multivariant(variant: variant, captions: captions, bandwidth: Int(peak.rounded(.up)), codecs: codecs,
                                                resolution: video, language: captionLanguage)
            try writeAtomically(Array(text.utf8), to: name, isPlaylist: true)
        }
    }

    /// Writes a file under a temporary name and renames it into place, then hands it to the
    /// mirror (only whole files, in the order they became whole).
    private func writeAtomically(_ bytes: [UInt8], to name: String, isPlaylist: Bool = false, mirrored: Bool = true) throws {
        let path = directory + "/" + name
        let temporary = path + ".tmp"
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw OutputError(fault: .destination, output: self.name, message: "cannot write \(name): \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            throw OutputError(fault: .destination, output: self.name, message: "cannot rename \(name): \(String(cString: strerror(errno)))")
        }
        if mirrored { mirror?.written(name: name, bytes: bytes, isPlaylist: isPlaylist) }
    }
}
