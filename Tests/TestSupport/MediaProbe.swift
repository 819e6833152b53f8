import Foundation
import Platform

/// What `ffprobe -show_format -show_streams -of json` says about a media file.
public struct MediaProbe: Sendable, Decodable {
    public struct Format: Sendable, Decodable {
        public let formatName: String?
        public let duration: String?
        public let startTime: String?
        public let size: String?
        public let bitRate: String?
        /// The container's tags (an MP4's `comment`, `encoder`).
        public let tags: [String: String]?

        enum CodingKeys: String, CodingKey {
            case formatName = "format_name", duration, startTime = "start_time", size, bitRate = "bit_rate", tags
        }

        public var durationSeconds: Double? { duration.flatMap(Double.init) }
    }

    public struct Stream: Sendable, Decodable {
        public let index: Int
        public let codecName: String?
        public let codecType: String?
        public let profile: String?
        public let width: Int?
        public let height: Int?
        public let pixFmt: String?
        public let avgFrameRate: String?
        public let rFrameRate: String?
        public let sampleRate: String?
        public let channels: Int?
        public let duration: String?
        public let bitRate: String?
        public let nbFrames: String?

        enum CodingKeys: String, CodingKey {
            case index, codecName = "codec_name", codecType = "codec_type", profile, width, height,
                 pixFmt = "pix_fmt", avgFrameRate = "avg_frame_rate", rFrameRate = "r_frame_rate",
                 sampleRate = "sample_rate", channels, duration, bitRate = "bit_rate", nbFrames = "nb_frames"
        }

        /// avg_frame_rate as a number ("30/1" → 30).
        public var framesPerSecond: Double? {
            guard let text = avgFrameRate else { return nil }
            let parts = text.split(separator: "/").compactMap { Double($0) }
            guard parts.count == 2, parts[1] != 0 else { return nil }
            return parts[0] / parts[1]
        }

        public var durationSeconds: Double? { duration.flatMap(Double.init) }
    }

    public let format: Format
    public let streams: [Stream]

    public var video: Stream? { streams.first { $0.codecType == "video" } }
    public var audio: Stream? { streams.first { $0.codecType == "audio" } }

    /// Runs ffprobe on `path`. Throws with ffprobe's own message when it cannot read the file.
    public static func probe(_ path: String) throws -> MediaProbe {
        let run = try Tool.run("ffprobe", ["-v", "error", "-show_format", "-show_streams", "-of", "json", path])
        guard run.status == 0 else { throw ToolError("ffprobe \(path) failed: \(run.standardError)") }
        return try JSONDecoder().decode(MediaProbe.self, from: Data(run.standardOutput.utf8))
    }

    /// ffprobe's JSON for any extra `-show_*` entries, parsed generically.
    public static func json(_ arguments: [String]) throws -> Any {
        let run = try Tool.run("ffprobe", ["-v", "error", "-of", "json"] + arguments)
        guard run.status == 0 else { throw ToolError("ffprobe failed: \(run.standardError)") }
        return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    }

    /// The packets of one stream: pts (seconds) and whether each is a keyframe.
    public static func packets(_ path: String, stream: String = "v:0") throws -> [(time: Double, keyframe: Bool)] {
        let run = try Tool.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                           "packet=pts_time,flags", "-of", "csv=p=0", path])
        guard run.status == 0 else { throw ToolError("ffprobe packets of \(path) failed: \(run.standardError)") }
        return run.standardOutput.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]) else { return nil }
            return (time, fields[1].contains("K"))
        }
    }
}

/// Runs ffmpeg and the other command-line tools that tests check outputs with.
public enum Tool {
    public struct Run: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
    }

    /// Runs `program` (looked up on PATH) to completion.
    public static func run(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        let result = try Subprocess.run(program, arguments, environment: environment)
        return Run(status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }

    /// `ffmpeg -v error -xerror -i path -f null -`: a full decode that fails on the first error.
    public static func decodeFully(_ path: String, extraInputOptions: [String] = []) throws -> Run {
        try run("ffmpeg", ["-nostdin", "-v", "error", "-xerror"] + extraInputOptions + ["-i", path, "-f", "null", "-"])
    }
}

/// A failure of a tool a test ran.
public struct ToolError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
