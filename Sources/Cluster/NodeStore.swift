import Foundation
import Postgres

/// The cluster's tables (migration 0011, docs/CLUSTER.md): nodes and their heartbeats, and where
/// each live room is placed. Every decision that two nodes could race for is one SQL statement,
/// and every "is it alive" is judged on the database's clock, so the nodes' clocks never matter.
///
/// Concurrency: blocking calls on a `PostgresPool`, from any thread.
public final class NodeStore: Sendable {
    public let pool: PostgresPool
    /// `interval '10 seconds'`, as SQL: a node whose heartbeat is older is dead.
    static let deadAfter = "interval '\(Int(Node.deadAfter)) seconds'"

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    // MARK: - A node's own row

    /// Writes this node's row (again, after a restart with the same id: a fresh start, ACTIVE).
    public func register(_ node: Node) throws(ClusterError) {
        try run { connection in
            _ = try connection.query(
                """
                INSERT INTO nodes (id, url, rtc_address, region, cores, state, max_rooms, started_at, heartbeat_at, drain_deadline)
                VALUES ($1, $2, $3, $4, $5, 'ACTIVE', $6, now(), now(), NULL)
                ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, rtc_address = EXCLUDED.rtc_address, region = EXCLUDED.region,
                    cores = EXCLUDED.cores, state = 'ACTIVE', max_rooms = EXCLUDED.max_rooms, started_at = now(), heartbeat_at = now(),
                    drain_deadline = NULL, rooms = 0, participants = 0, tracks = 0, cpu = 0
                """, [node.id, node.url, node.rtcAddress, node.region, node.cores, node.maxRooms])
        }
    }

    /// Writes a heartbeat with the node's load; the row as it is now (an operator may have set
    /// it DRAINING), or nil when the row is gone.
    public func heartbeat(_ id: String, load: NodeLoad) throws(ClusterError) -> Node? {
        try run { connection in
            try connection.query(
                "UPDATE nodes SET heartbeat_at = now(), rooms = $2, participants = $3, tracks = $4, cpu = $5 WHERE id = $1",
                [id, load.rooms, load.participants, load.tracks, load.cpu])
            return try Self.nodes(connection, where: "n.id = $1", [id]).first
        }
    }

    /// Sets a node DRAINING: no room is placed on it from now on; its rooms have until
    /// `deadline` (`revue nodes drain`, or the node itself on SIGTERM), then it moves them.
    public func drain(_ id: String, deadline: Date) throws(ClusterError) {
        let updated = try run { connection in
            try connection.query("UPDATE nodes SET state = 'DRAINING', drain_deadline = coalesce(drain_deadline, $2) WHERE id = $1",
                                 [id, deadline]).affectedRows
        }
        guard updated == 1 else { throw ClusterError(.unknownNode, "no node \(id)") }
    }

    /// Removes a node that is leaving: its row and its placements (its rooms were moved first).
    public func remove(_ id: String) throws(ClusterError) {
        try run { connection in
            _ = try connection.query("DELETE FROM nodes WHERE id = $1", [id])
        }
    }

    // MARK: - Reading

    /// Every node, live or dead, by id.
    public func nodes() throws(ClusterError) -> [Node] {
        try run { connection in try Self.nodes(connection, where: "true", []) }
    }

    public func node(_ id: String) throws(ClusterError) -> Node? {
        try run { connection in try Self.nodes(connection, where: "n.id = $1", [id]).first }
    }

    static func nodes(_ connection: PostgresConnection, where condition: String, _ parameters: [(any PostgresEncodable)?]) throws -> [Node] {
        try connection.query(
            """
            SELECT n.id, n.url, n.rtc_address, n.region, n.cores, n.state, n.max_rooms, n.rooms, n.participants, n.tracks,
                   n.cpu::float8 AS cpu, n.started_at, n.heartbeat_at, n.drain_deadline,
                   n.heartbeat_at > now() - \(deadAfter) AS alive,
                   (SELECT count(*) FROM room_placements p WHERE p.node_id = n.id)::int8 AS placed
            FROM nodes n WHERE \(condition) ORDER BY n.id
            """, parameters
        ).map { row in
            Node(id: try row.decode("id"), url: try row.decode("url"), rtcAddress: try row.decode("rtc_address"), region: try row.decode("region"),
                 cores: try row.decode("cores"), state: Node.State(rawValue: try row.decode("state")) ?? .active, maxRooms: try row.decode("max_rooms"),
                 load: NodeLoad(rooms: try row.decode("rooms"), participants: try row.decode("participants"), tracks: try row.decode("tracks"),
                                cpu: try row.decode("cpu")),
                 startedAt: try row.decode("started_at"), heartbeatAt: try row.decode("heartbeat_at"),
                 drainDeadline: try row.decodeIfPresent("drain_deadline"), alive: try row.decode("alive"), placedRooms: try row.decode("placed"))
        }
    }

    // MARK: - Dead nodes

    /// What a sweep found and undid.
    public struct Sweep: Sendable, Equatable {
        /// Nodes found dead that still had rooms or sessions.
        public var deadNodes: [String] = []
        /// Placements removed (their rooms are placed again when someone comes back).
        public var placementsRemoved = 0
        /// Ongoing sessions of dead nodes ended.
        public var sessionsEnded = 0
        /// Rows of nodes dead for over an hour, deleted.
        public var nodesForgotten = 0
    }

    /// Undoes what dead nodes left (any node may run it; it is idempotent): their placements go,
    /// their ongoing sessions end (participants' stays closed, leave reason unknown), so no row
    /// points at a dead node; a node dead for an hour is forgotten.
    public func sweepDeadNodes() throws(ClusterError) -> Sweep {
        try run { connection in
            try connection.transaction {
                var sweep = Sweep()
                let dead = try connection.query("SELECT id FROM nodes WHERE heartbeat_at <= now() - \(Self.deadAfter) ORDER BY id FOR UPDATE SKIP LOCKED")
                    .map { try $0.decode("id", as: String.self) }
                    // A node whose row is gone (it left, or was forgotten) but left sessions ongoing.
                    + connection.query("""
                        SELECT DISTINCT node_id FROM sessions
                        WHERE ended_at IS NULL AND node_id IS NOT NULL AND node_id NOT IN (SELECT id FROM nodes)
                        """).map { try $0.decode("node_id", as: String.self) }
                guard !dead.isEmpty else { return sweep }
                for id in dead {
                    let placements = try connection.query("DELETE FROM room_placements WHERE node_id = $1", [id]).affectedRows
                    // 1001 WEBSOCKET_DISCONNECTED: their connections died with the node.
                    _ = try connection.query(
                        """
                        UPDATE participant_time_logs SET ended_at = now(), leave_reason = 1001
                        WHERE ended_at IS NULL AND session_id IN (SELECT id FROM sessions WHERE node_id = $1 AND ended_at IS NULL)
                        """, [id])
                    let sessions = try connection.query("UPDATE sessions SET ended_at = now() WHERE node_id = $1 AND ended_at IS NULL", [id]).affectedRows
                    if placements + sessions > 0 { sweep.deadNodes.append(id) }
                    sweep.placementsRemoved += placements
                    sweep.sessionsEnded += sessions
                }
                sweep.nodesForgotten = try connection.query("DELETE FROM nodes WHERE heartbeat_at <= now() - interval '1 hour'").affectedRows
                return sweep
            }
        }
    }

    /// Runs `body` on a pooled connection, its failures as `ClusterError.database`.
    func run<T>(_ body: (PostgresConnection) throws -> T) throws(ClusterError) -> T {
        do {
            return try pool.with(body)
        } catch let error as ClusterError {
            throw error
        } catch {
            throw ClusterError(.database, "\(error)")
        }
    }
}
