import Foundation
import Postgres

/// Places rooms on nodes (docs/CLUSTER.md, "Placement"): a room's live session lives on one node,
/// chosen when the session starts and kept while it lives.
///
/// Placing is one statement: `INSERT … ON CONFLICT (room_id)` picks the least loaded live ACTIVE
/// node under its room limit (the door's region first; fewest rooms placed, then fewest
/// participants; the door itself on a tie, so most joins need no redirect) and writes it, unless
/// the room is placed already on a node that is alive, which wins. Two nodes racing for one room
/// therefore agree on one node, whichever statement commits first. A placement on a dead node is
/// replaced by the next one. Placements of different rooms take turns (a transaction-scoped
/// advisory lock), so two rooms placed at the same instant see each other's counts: the room
/// limit holds exactly and the rooms spread evenly. A session starts once, so the turn is cheap.
///
/// Concurrency: blocking calls on the store's pool, from any thread.
public struct RoomPlacer: Sendable {
    public let store: NodeStore
    /// The node this placer runs on (the door).
    public let nodeID: String

    /// The advisory lock placements take turns on ("REVUE" in ASCII, as a number no other
    /// part of Revue uses).
    static let placementLock = 0x52_45_56_55_45

    public init(store: NodeStore, nodeID: String) {
        self.store = store
        self.nodeID = nodeID
    }

    /// Where a room lives.
    public enum Placement: Sendable, Equatable {
        /// On this node.
        case here
        /// On another node: the client goes there.
        case elsewhere(Node)
    }

    /// The `WITH` clause naming the node a room goes to (`candidate`): live, ACTIVE, under its
    /// room limit; the door's region first, then the fewest rooms placed, the fewest
    /// participants, the door itself on a tie (unless it is excluded: it drains), then chance.
    /// `$2` is the door.
    static func candidate(includingDoor: Bool) -> String {
        """
        WITH door AS (SELECT region FROM nodes WHERE id = $2),
        candidate AS (
            SELECT n.id FROM nodes n
            WHERE n.state = 'ACTIVE' AND n.heartbeat_at > now() - \(NodeStore.deadAfter) \(includingDoor ? "" : "AND n.id <> $2")
              AND (SELECT count(*) FROM room_placements p WHERE p.node_id = n.id) < n.max_rooms
            ORDER BY (n.region = coalesce((SELECT region FROM door), n.region)) DESC,
                     (SELECT count(*) FROM room_placements p WHERE p.node_id = n.id) ASC,
                     n.participants ASC, (n.id = $2) DESC, random()
            LIMIT 1
        )
        """
    }

    /// The node `roomID` lives on, placing it now if it is nowhere (or on a dead node).
    /// - Throws: `noNodeAvailable` when every node is full, draining or dead.
    public func place(_ roomID: String) throws(ClusterError) -> Placement {
        let dead = NodeStore.deadAfter
        let nodeID = try store.run { connection -> String? in try connection.transaction {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [Self.placementLock])
            let placed = try connection.query(
                """
                \(Self.candidate(includingDoor: true))
                INSERT INTO room_placements (room_id, node_id) SELECT $1, id FROM candidate
                ON CONFLICT (room_id) DO UPDATE SET node_id = EXCLUDED.node_id, placed_at = now()
                    WHERE NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = room_placements.node_id AND n.heartbeat_at > now() - \(dead))
                RETURNING node_id
                """, [roomID, self.nodeID])
            if let row = placed.first { return try row.decode("node_id", as: String.self) }
            // Placed already on a live node (or no node can take it).
            return try connection.query("SELECT node_id FROM room_placements WHERE room_id = $1", [roomID]).first?.decode("node_id", as: String.self)
        } }
        guard let nodeID else { throw ClusterError(.noNodeAvailable, "no node can take room \(roomID) now: every node is full, draining or down") }
        if nodeID == self.nodeID { return .here }
        guard let node = try store.node(nodeID) else { throw ClusterError(.noNodeAvailable, "room \(roomID) was placed on node \(nodeID), which is gone") }
        return .elsewhere(node)
    }

    /// Where `roomID` lives now, without placing it: nil when nowhere (or on a dead node).
    public func location(of roomID: String) throws(ClusterError) -> Placement? {
        let dead = NodeStore.deadAfter
        let nodeID = try store.run { connection in
            try connection.query(
                """
                SELECT p.node_id FROM room_placements p JOIN nodes n ON n.id = p.node_id
                WHERE p.room_id = $1 AND n.heartbeat_at > now() - \(dead)
                """, [roomID]).first?.decode("node_id", as: String.self)
        }
        guard let nodeID else { return nil }
        if nodeID == self.nodeID { return .here }
        return try store.node(nodeID).map { .elsewhere($0) }
    }

    /// Moves a room placed here to the least loaded other live ACTIVE node (this one drains);
    /// that node, or nil when none can take it (then its placement is released, and its
    /// participants' rejoins place it wherever they can).
    public func move(_ roomID: String) throws(ClusterError) -> Node? {
        let target = try store.run { connection -> String? in try connection.transaction {
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [Self.placementLock])
            let moved = try connection.query(
                """
                \(Self.candidate(includingDoor: false))
                UPDATE room_placements SET node_id = (SELECT id FROM candidate), placed_at = now()
                WHERE room_id = $1 AND node_id = $2 AND EXISTS (SELECT 1 FROM candidate)
                RETURNING node_id
                """, [roomID, self.nodeID])
            if let row = moved.first { return try row.decode("node_id", as: String.self) }
            _ = try connection.query("DELETE FROM room_placements WHERE room_id = $1 AND node_id = $2", [roomID, self.nodeID])
            return nil
        } }
        guard let target else { return nil }
        return try store.node(target)
    }

    /// The room's session ended here: its placement goes, so its next session is placed afresh.
    public func release(_ roomID: String) throws(ClusterError) {
        try store.run { connection in
            _ = try connection.query("DELETE FROM room_placements WHERE room_id = $1 AND node_id = $2", [roomID, nodeID])
        }
    }

    /// Every room placed on this node (a draining node's rooms to move).
    public func placedHere() throws(ClusterError) -> [String] {
        try store.run { connection in
            try connection.query("SELECT room_id FROM room_placements WHERE node_id = $1 ORDER BY room_id", [nodeID])
                .map { try $0.decode("room_id", as: String.self) }
        }
    }
}
