/// One output of a pipeline. Each case is one sink in the Outputs module.
public enum OutputSpec: Sendable, Equatable {
    /// A crash-safe MP4 file, made faststart when it finishes.
    case mp4(path: String)
    /// fMP4 HLS in a directory: `index.m3u8` (the whole event), `live.m3u8` (a window), with
    /// parts of `partDuration` seconds for low-latency players (nil: ordinary HLS only).
    case hls(directory: String, segmentDuration: Double, window: Int, partDuration: Double?)
    /// RTMP or RTMPS, with its stream key (a secret).
    case rtmp(LivestreamOutput)
    /// Each participant's tracks as they arrived, a file each, and `manifest.json`, in a
    /// directory (`config.mode: "tracks"`; no composite, no encode).
    case tracks(directory: String)

    /// HLS parts of a third of a second (ten pictures at 30 fps, declared to the millisecond
    /// above): players 1 s behind the live edge (docs/OUTPUTS.md).
    public static let defaultPartDuration = 0.334

    /// The kind of part it writes, or nil for a stream that leaves no file.
    public var partKind: PartKind? {
        switch self {
        case .mp4: .mp4
        case .hls: .hls
        case .rtmp: nil
        case .tracks: .tracks
        }
    }

    /// The same output with its stream key replaced by `***`, for logs and events.
    public var redacted: OutputSpec {
        guard case .rtmp(var output) = self, output.streamKey != nil else { return self }
        output.streamKey = "***"
        return .rtmp(output)
    }

    /// How people write it on `revue record --output`: `FILE.mp4`, `hls:DIR`, `rtmp://…`.
    public var commandLineForm: String {
        switch self {
        case .mp4(let path): path
        case .hls(let directory, _, _, _): "hls:" + directory
        case .rtmp(let output): output.url
        case .tracks(let directory): "tracks:" + directory
        }
    }

    /// Reads an `--output` value. The stream key of an `rtmp://` output is given separately.
    public init(commandLine text: String, streamKey: String?, segmentDuration: Double, window: Int,
                partDuration: Double? = OutputSpec.defaultPartDuration) throws(SpecError)
    {
        let lower = text.lowercased()
        if lower.hasPrefix("hls:") {
            let directory = String(text.dropFirst(4))
            guard !directory.isEmpty else { throw SpecError("hls: needs a directory, as in hls:out/hls") }
            self = .hls(directory: directory, segmentDuration: segmentDuration, window: window, partDuration: partDuration)
        } else if lower.hasPrefix("tracks:") {
            let directory = String(text.dropFirst(7))
            guard !directory.isEmpty else { throw SpecError("tracks: needs a directory, as in tracks:out/tracks") }
            self = .tracks(directory: directory)
        } else if lower.hasPrefix("mp4:") {
            // The same form as hls:DIR, for a file whose name does not end in .mp4.
            let path = String(text.dropFirst(4))
            guard !path.isEmpty else { throw SpecError("mp4: needs a file, as in mp4:out/room.mp4") }
            self = .mp4(path: path)
        } else if lower.hasPrefix("rtmp://") || lower.hasPrefix("rtmps://") {
            self = .rtmp(LivestreamOutput(url: text, streamKey: streamKey))
        } else if lower.hasSuffix(".mp4") {
            self = .mp4(path: text)
        } else {
            throw SpecError("output '\(text)' is not FILE.mp4, mp4:FILE, hls:DIR, tracks:DIR, rtmp://… or rtmps://…")
        }
    }
}

extension OutputSpec: Codable {
    private enum CodingKeys: String, CodingKey { case type, path, directory, segmentDuration, window, partDuration, url, streamKey }
    private enum Tag: String, Codable { case mp4, hls, rtmp, tracks }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Tag.self, forKey: .type) {
        case .mp4:
            self = .mp4(path: try container.decode(String.self, forKey: .path))
        case .hls:
            self = .hls(directory: try container.decode(String.self, forKey: .directory),
                        segmentDuration: try container.decode(Double.self, forKey: .segmentDuration),
                        window: try container.decode(Int.self, forKey: .window),
                        // Absent in specs written before low-latency HLS: ordinary HLS, as they were.
                        partDuration: try container.decodeIfPresent(Double.self, forKey: .partDuration))
        case .rtmp:
            self = .rtmp(LivestreamOutput(url: try container.decode(String.self, forKey: .url),
                                          streamKey: try container.decodeIfPresent(String.self, forKey: .streamKey)))
        case .tracks:
            self = .tracks(directory: try container.decode(String.self, forKey: .directory))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .mp4(let path):
            try container.encode(Tag.mp4, forKey: .type)
            try container.encode(path, forKey: .path)
        case .hls(let directory, let segmentDuration, let window, let partDuration):
            try container.encode(Tag.hls, forKey: .type)
            try container.encode(directory, forKey: .directory)
            try container.encode(segmentDuration, forKey: .segmentDuration)
            try container.encode(window, forKey: .window)
            try container.encodeIfPresent(partDuration, forKey: .partDuration)
        case .rtmp(let output):
            try container.encode(Tag.rtmp, forKey: .type)
            try container.encode(output.url, forKey: .url)
            try container.encodeIfPresent(output.streamKey, forKey: .streamKey)
        case .tracks(let directory):
            try container.encode(Tag.tracks, forKey: .type)
            try container.encode(directory, forKey: .directory)
        }
    }
}
