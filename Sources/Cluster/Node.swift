import Foundation

/// One room server of the cluster (`revue serve`), as its row in `nodes` says (docs/CLUSTER.md):
/// where clients reach it, its state and its load. Alive while its heartbeat is recent.
public struct Node: Sendable, Equatable {
    public enum State: String, Sendable, Equatable, CaseIterable {
        /// Takes new rooms.
        case active = "ACTIVE"
        /// Keeps its rooms until they end or its deadline, and takes none.
        case draining = "DRAINING"
    }

    /// A node whose heartbeat is older than this is dead.
    public static let deadAfter = 10.0
    /// How often a node writes its heartbeat.
    public static let heartbeatInterval = 2.0

    public var id: String
    /// The base of its HTTP URLs (`http://host:port`): signalling at `/v2/rtc`, WHIP, join pages.
    public var url: String
    /// Its WebRTC media address as announced (`IP:port`).
    public var rtcAddress: String
    public var region: String
    public var cores: Int
    public var state: State
    /// The most rooms placed on it at once.
    public var maxRooms: Int
    public var load: NodeLoad
    public var startedAt: Date
    public var heartbeatAt: Date
    public var drainDeadline: Date?
    /// Whether its heartbeat was recent when the row was read (judged on the database's clock,
    /// so the nodes' own clocks do not matter).
    public var alive: Bool
    /// Rooms placed on it when the row was read (`room_placements`).
    public var placedRooms: Int

    public init(id: String, url: String, rtcAddress: String = "", region: String = "", cores: Int = 1, state: State = .active,
                maxRooms: Int = 1_000, load: NodeLoad = NodeLoad(), startedAt: Date = Date(), heartbeatAt: Date = Date(), drainDeadline: Date? = nil,
                alive: Bool = true, placedRooms: Int = 0)
    {
        self.id = id
        self.url = url
        self.rtcAddress = rtcAddress
        self.region = region
        self.cores = cores
        self.state = state
        self.maxRooms = maxRooms
        self.load = load
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
        self.drainDeadline = drainDeadline
        self.alive = alive
        self.placedRooms = placedRooms
    }

    /// Its signalling URL: `ws://…/v2/rtc` (or `wss://` for an https node).
    public var signalingURL: String {
        let base = url.hasPrefix("https://") ? "wss://" + url.dropFirst("https://".count) : "ws://" + url.dropFirst("http://".count)
        return base + "/v2/rtc"
    }
}

/// What a node carries, written with each heartbeat.
public struct NodeLoad: Sendable, Equatable {
    /// Rooms with a live session on it.
    public var rooms: Int
    public var participants: Int
    /// Tracks published into its rooms.
    public var tracks: Int
    /// Its process's CPU over the last interval, in cores.
    public var cpu: Double

    public init(rooms: Int = 0, participants: Int = 0, tracks: Int = 0, cpu: Double = 0) {
        self.rooms = rooms
        self.participants = participants
        self.tracks = tracks
        self.cpu = cpu
    }
}
