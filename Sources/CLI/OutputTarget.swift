import Foundation
import Log
import Outputs

/// One `--output` of `revue record`: `FILE.mp4`, `hls:DIR`, or `rtmp://…` / `rtmps://…`.
enum OutputTarget: Equatable {
    case mp4(String)
    case hls(String)
    case rtmp(String)

    init(_ text: String, command: String) throws(UsageError) {
        let lower = text.lowercased()
        if lower.hasPrefix("hls:") {
            let directory = String(text.dropFirst(4))
            guard !directory.isEmpty else { throw UsageError("hls: needs a directory, as in hls:out/hls", command: command) }
            self = .hls(directory)
        } else if lower.hasPrefix("rtmp://") || lower.hasPrefix("rtmps://") {
            self = .rtmp(text)
        } else if lower.hasSuffix(".mp4") {
            self = .mp4(text)
        } else {
            throw UsageError("output '\(text)' is not FILE.mp4, hls:DIR, rtmp://… or rtmps://…", command: command)
        }
    }

    /// Builds the output, each behind a queue of its own.
    func makeSink(streams: StreamLayout, streamKey: String?, segmentDuration: Double, window: Int,
                  onPlayable: @escaping @Sendable () -> Void) throws -> QueuedSink
    {
        switch self {
        case .mp4(let path):
            return QueuedSink(try MP4FileOutput(path: path, streams: streams), policy: .block)
        case .hls(let directory):
            let output = try HLSOutput(directory: directory, streams: streams, segmentDuration: segmentDuration, window: window)
            output.onPlayable = onPlayable
            return QueuedSink(output, policy: .block)
        case .rtmp(let url):
            return QueuedSink(try RTMPOutput(url: url, streamKey: streamKey, streams: streams), policy: .dropToKeyframe, capacity: 240)
        }
    }
}
