/// Where a pipeline's media comes from. A fixture today; a live room is the next case.
public enum MediaSourceSpec: Sendable, Equatable {
    /// A recorded room (`capture.pcap` + `manifest.json`) replayed through the pipeline.
    case fixture(FixtureSourceSpec)
    /// A live room on Revue's room server, joined as a hidden `RECV_ONLY` recorder.
    case room(RoomSourceSpec)

    /// The same source without secrets (the token), for logs and events.
    public var redacted: MediaSourceSpec {
        guard case .room(var room) = self else { return self }
        room.token = "***"
        return .room(room)
    }
}

/// A live room: where its signalling is, which room, and the token to join with (a secret,
/// minted by the worker for this job).
public struct RoomSourceSpec: Sendable, Codable, Equatable {
    /// `ws://host:port/v2/rtc`.
    public var signalingURL: String
    public var roomID: String
    public var token: String

    public init(signalingURL: String, roomID: String, token: String) {
        self.signalingURL = signalingURL
        self.roomID = roomID
        self.token = token
    }
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
    private enum CodingKeys: String, CodingKey { case type, fixture, room }
    private enum Tag: String, Codable { case fixture, room }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Tag.self, forKey: .type) {
        case .fixture: self = .fixture(try container.decode(FixtureSourceSpec.self, forKey: .fixture))
        case .room: self = .room(try container.decode(RoomSourceSpec.self, forKey: .room))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .fixture(let fixture):
            try container.encode(Tag.fixture, forKey: .type)
            try container.encode(fixture, forKey: .fixture)
        case .room(let room):
            try container.encode(Tag.room, forKey: .type)
            try container.encode(room, forKey: .room)
        }
    }
}
