import Foundation
import HLS
import JobSpec
import Log
import Outputs
import Storage

extension OutputSpec {
    /// Keyframes this output wants at the start beyond the encoder's every two seconds: a
    /// low-latency HLS stream's short first segments, so it is playable sooner.
    public var startKeyframes: (interval: Double, count: Int)? {
        guard case .hls(_, _, _, let partDuration) = self else { return nil }
        return HLSOutput.startKeyframes(lowLatency: partDuration.map { HLSLowLatency(partTarget: $0) })
    }

    /// Builds the output's sink, behind a queue of its own: files block the pipeline when they
    /// fall behind (nothing is lost), a stream drops to the next keyframe (it stays live).
    /// `bucketMirror`: HLS files also go to that bucket as they are written. `captions`: HLS
    /// carries the room's live transcription as a WebVTT rendition (a room, not a fixture).
    /// `wallClockAtZero`: when the room had media time 0 (a live room), for HLS's program dates.
    /// `ladder`: an HLS output that is one rung of a ladder (`config.renditions`), with `mirror`
    /// its rendition of the ladder's bucket mirror.
    public func makeSink(streams: StreamLayout, bucketMirror: BucketMirrorSpec? = nil, mirror givenMirror: HLSFileMirror? = nil, captions: Bool = false,
                         wallClockAtZero: Date? = nil, ladder: (ladder: HLSLadder, rung: Int)? = nil,
                         onPlayable: @escaping @Sendable () -> Void) throws -> QueuedSink
    {
        switch self {
        case .mp4(let path):
            return QueuedSink(try MP4FileOutput(path: path, streams: streams), policy: .block)
        case .hls(let directory, let segmentDuration, let window, let partDuration):
            let mirror = givenMirror ?? bucketMirror.map { HLSBucketMirror(client: S3Client(config: $0.storage), prefix: $0.prefix) }
            let output = try HLSOutput(directory: directory, streams: streams, segmentDuration: segmentDuration, window: window,
                                       lowLatency: partDuration.map { HLSLowLatency(partTarget: $0) }, mirror: mirror, captions: captions,
                                       wallClockAtZero: wallClockAtZero)
            output.onPlayable = onPlayable
            output.ladder = ladder
            return QueuedSink(output, policy: .block)
        case .rtmp(let destination):
            return QueuedSink(try RTMPOutput(url: destination.url, streamKey: destination.streamKey, streams: streams),
                              policy: .dropToKeyframe, capacity: 240)
        case .tracks(let directory):
            // A per-participant recording encodes nothing: `TrackRecorder` writes its files.
            throw SpecError("tracks:\(directory) is a per-participant recording (config.mode \"tracks\"): it takes no encoded composite and goes with no other output")
        }
    }
}
