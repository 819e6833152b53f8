import Foundation

/// What a job's pipeline process tells the worker that runs it, over a pipe (its descriptor 3),
/// one JSON object a line: `{"event": "progress", "progress": {…}}`. docs/JOBS.md.
public enum JobRunEvent: Sendable, Equatable {
    /// The process read its spec and built its pipeline (the spec without secrets).
    case configured(PipelineSpec)
    /// The first encoded packet went to the outputs.
    case started
    /// HLS: the playlists are published.
    case playable
    /// Every second or so.
    case progress(JobProgress)
    /// One output failed (the others go on).
    case outputFailed(output: String, error: String)
    /// Who is on screen changed, at a media time: a join, a leave, a camera, a share, a rename.
    case layout(tiles: [Tile], at: Double)
    /// The run stops on its own: its maximum duration, or nobody publishing for its idle
    /// timeout. It finishes its outputs and exits 0.
    case limitReached(JobStopLimit)
    /// A pause began (`paused: true` in a `JobControl`) at this media time of the output: what
    /// the room does from here is not written.
    case paused(at: Double)
    /// Writing goes on (the output's media time, and the seconds of the room left out).
    case resumed(at: Double, pausedFor: Double)
    /// A control changed the layout or the theme from this media time of the output on.
    case layoutChanged(LayoutSettings, theme: ThemeName, at: Double)
    /// The job left a run that carries others (`JobRunCommand.detach`, or its limit): its outputs
    /// are finished, and the run goes on for the rest.
    case detached

    /// One tile of a layout.
    public struct Tile: Sendable, Codable, Equatable {
        public var participantID: String
        public var name: String
        /// `camera`, `cameraOff` or `screenShare`.
        public var content: String

        public init(participantID: String, name: String, content: String) {
            self.participantID = participantID
            self.name = name
            self.content = content
        }
    }

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .configured: "configured"
        case .started: "started"
        case .playable: "playable"
        case .progress: "progress"
        case .outputFailed: "outputFailed"
        case .layout: "layout"
        case .limitReached: "limitReached"
        case .paused: "paused"
        case .resumed: "resumed"
        case .layoutChanged: "layoutChanged"
        case .detached: "detached"
        }
    }
}

extension JobRunEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case event, spec, progress, output, error, tiles, at, limit, pausedFor, layout, theme
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .event)
        switch name {
        case "configured": self = .configured(try container.decode(PipelineSpec.self, forKey: .spec))
        case "started": self = .started
        case "detached": self = .detached
        case "playable": self = .playable
        case "progress": self = .progress(try container.decode(JobProgress.self, forKey: .progress))
        case "outputFailed":
            self = .outputFailed(output: try container.decode(String.self, forKey: .output), error: try container.decode(String.self, forKey: .error))
        case "layout": self = .layout(tiles: try container.decode([Tile].self, forKey: .tiles), at: try container.decode(Double.self, forKey: .at))
        case "limitReached": self = .limitReached(try container.decode(JobStopLimit.self, forKey: .limit))
        case "paused": self = .paused(at: try container.decode(Double.self, forKey: .at))
        case "resumed": self = .resumed(at: try container.decode(Double.self, forKey: .at), pausedFor: try container.decode(Double.self, forKey: .pausedFor))
        case "layoutChanged":
            self = .layoutChanged(try container.decode(LayoutSettings.self, forKey: .layout), theme: try container.decode(ThemeName.self, forKey: .theme),
                                  at: try container.decode(Double.self, forKey: .at))
        default:
            throw DecodingError.dataCorruptedError(forKey: .event, in: container, debugDescription: "unknown job run event '\(name)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        switch self {
        case .configured(let spec): try container.encode(spec, forKey: .spec)
        case .started, .playable, .detached: break
        case .progress(let progress): try container.encode(progress, forKey: .progress)
        case .outputFailed(let output, let error):
            try container.encode(output, forKey: .output)
            try container.encode(error, forKey: .error)
        case .layout(let tiles, let at):
            try container.encode(tiles, forKey: .tiles)
            try container.encode(at, forKey: .at)
        case .limitReached(let limit):
            try container.encode(limit, forKey: .limit)
        case .paused(let at):
            try container.encode(at, forKey: .at)
        case .resumed(let at, let pausedFor):
            try container.encode(at, forKey: .at)
            try container.encode(pausedFor, forKey: .pausedFor)
        case .layoutChanged(let layout, let theme, let at):
            try container.encode(layout, forKey: .layout)
            try container.encode(theme, forKey: .theme)
            try container.encode(at, forKey: .at)
        }
    }

    /// The event as one line of the wire format, newline included.
    public var line: [UInt8] {
        // Encoding these plain values cannot fail; an empty line is skipped by the reader.
        ((try? JSONEncoder().encode(self)).map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }
}
