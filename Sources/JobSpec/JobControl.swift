import Foundation

/// What a running job is told by the worker that runs it (docs/JOBS.md, "Controls on a running
/// job"): the whole wanted state, one JSON line on the run's standard input each time the job's
/// controls change in the database. Each line carries everything, so a line repeated changes
/// nothing and one missed is made good by the next (the worker sends the state again when its
/// heartbeat sees a version the child has not had).
public struct JobControl: Sendable, Codable, Equatable {
    /// The job row's `control_version`: a run applies a line only when it is newer than the last.
    public var version: Int
    /// A recording writes nothing while paused; resumed, the file goes on where it stopped.
    public var paused: Bool
    /// The layout and theme from the next picture on.
    public var layout: LayoutSettings
    public var theme: ThemeName
    /// A livestream's destinations (their publish URLs, stream key included: the line goes
    /// down a pipe, never onto a command line); nil for other kinds.
    public var destinations: [String]?
    /// Still pictures asked for in the last minute, each with its `path`: the run writes each
    /// one it has not written yet from its next picture.
    public var captures: [CaptureRequest]?
    /// The job the line is for, in a run that carries several (`PipelineSpec.hostsJobs`); nil:
    /// the run's own job.
    public var job: String?

    public init(version: Int, paused: Bool, layout: LayoutSettings, theme: ThemeName, destinations: [String]? = nil,
                captures: [CaptureRequest]? = nil)
    {
        self.version = version
        self.paused = paused
        self.layout = layout
        self.theme = theme
        self.destinations = destinations
        self.captures = captures
    }

    /// The control as one line of the wire format, newline included.
    public var line: [UInt8] {
        // Encoding these plain values cannot fail; an empty line is skipped by the reader.
        ((try? JSONEncoder().encode(self)).map(Array.init) ?? []) + [UInt8(ascii: "\n")]
    }

    /// The longest line a run reads: eight destinations of 2.5 KiB each and the rest.
    public static let maximumLineLength = 64 * 1024
}
