/// Where a pipeline's media comes from. A fixture today; a live room is the next case.
public enum MediaSourceSpec: Sendable, Equatable {
    /// A recorded room (`capture.pcap` + `manifest.json`) replayed through the pipeline.
    case fixture(FixtureSourceSpec)
}

/// A fixture and how to replay it.
public struct FixtureSourceSpec: Sendable, Codable, Equatable {
    public var directory: String
    /// Passes over the capture as one continuous room; nil loops until the job is stopped.
    public var passes: Int?
    /// Paced by the capture's times (as if live) rather than as fast as the machine allows.
    public var realtime: Bool
    /// Seconds of nothing between passes of a loop; nil is the replay's default (0.5 s).
    /// Benchmarks set 0, so a looped fixture is as long as the same files looped by ffmpeg.
    public var loopGap: Double?

    public init(directory: String, passes: Int? = 1, realtime: Bool = false, loopGap: Double? = nil) {
        self.directory = directory
        self.passes = passes
        self.realtime = realtime
        self.loopGap = loopGap
    }
}

extension MediaSourceSpec: Codable {
    private enum CodingKeys: String, CodingKey { case type, fixture }
    private enum Tag: String, Codable { case fixture }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Tag.self, forKey: .type) {
        case .fixture: self = .fixture(try container.decode(FixtureSourceSpec.self, forKey: .fixture))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .fixture(let fixture):
            try container.encode(Tag.fixture, forKey: .type)
            try container.encode(fixture, forKey: .fixture)
        }
    }
}
