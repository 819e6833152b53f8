/// A room server node of the cluster and its load (`GET /v2/nodes`, Revue's): `alive` is false
/// once its heartbeat is older than 10 s, whatever its `state` says (docs/CLUSTER.md).
public struct NodeView: Codable, Sendable, Equatable {
    public var id: String
    public var url: String
    public var region: String
    /// ACTIVE or DRAINING.
    public var state: String
    public var alive: Bool
    public var cores: Int
    public var maxRooms: Int
    public var rooms: Int
    public var participants: Int
    public var tracks: Int
    /// The process's CPU over its last heartbeat, in cores.
    public var cpu: Double
    public var startedAt: String
    public var heartbeatAt: String

    public init(id: String, url: String, region: String, state: String, alive: Bool, cores: Int, maxRooms: Int, rooms: Int,
                participants: Int, tracks: Int, cpu: Double, startedAt: String, heartbeatAt: String)
    {
        self.id = id
        self.url = url
        self.region = region
        self.state = state
        self.alive = alive
        self.cores = cores
        self.maxRooms = maxRooms
        self.rooms = rooms
        self.participants = participants
        self.tracks = tracks
        self.cpu = cpu
        self.startedAt = startedAt
        self.heartbeatAt = heartbeatAt
    }
}
