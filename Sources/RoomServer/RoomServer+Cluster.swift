import Cluster
import Foundation
import HTTP
import Rooms
import Signaling

/// The room server as one node of a cluster (docs/CLUSTER.md): a room's session lives on the node
/// it was placed on when it started; a join, a WHIP publish or a join page for a room placed
/// elsewhere is sent there. Placements and their releases run on `joinLookups`, one at a time, so
/// a release never removes the placement of a session that a join just started.
extension RoomServer {
    /// On `joinLookups`: nil when the room lives here (placed now if it was nowhere), else what
    /// the joiner is answered: `redirect` to the room's node, or 3047 when no node can take it.
    func placementRefusal(_ roomID: String, requestID: RequestID?) -> ServerEnvelope? {
        guard let placer = configuration.placer else { return nil }
        do {
            switch try placer.place(roomID) {
            case .here:
                return nil
            case .elsewhere(let node):
                logger.debug("sent a join to the room's node", ["roomId": .string(roomID), "nodeId": .string(node.id)])
                return ServerEnvelope(.redirect(url: node.signalingURL, nodeID: node.id), id: requestID)
            }
        } catch {
            logger.error("could not place a room", ["roomId": .string(roomID), "error": .string(String(describing: error))])
            return ServerEnvelope(error: SignalingError(.unableToJoinRoom, "the room cannot be placed now: \(String(describing: error))", requestID: requestID))
        }
    }

    /// For an HTTP door (WHIP, the join page): a `307 Temporary Redirect` to the same request on
    /// the room's node when it lives elsewhere (placing it when `place`; a join page only looks),
    /// or nil to serve it here. RFC 9725 §4.5 lets a WHIP endpoint redirect with 307.
    func placementRedirect(_ request: HTTPRequest, roomID: String, place: Bool) -> HTTPResponse? {
        guard let placer = configuration.placer else { return nil }
        let found: Result<RoomPlacer.Placement?, ClusterError> = joinLookups.sync {
            Result { () throws(ClusterError) in place ? try placer.place(roomID) : try placer.location(of: roomID) }
        }
        switch found {
        case .success(.elsewhere(let node)):
            var response = HTTPResponse(status: 307, contentType: "text/plain; charset=utf-8",
                                        body: Array("room \(roomID) lives on node \(node.id): \(node.url)\(request.target)\n".utf8))
            response.headers.append(("Location", node.url + request.target))
            response.headers.append(("Cache-Control", "no-store"))
            return response
        case .success(.here), .success(nil):
            return nil
        case .failure(let error):
            return WHIPSessions.error(503, code: 3047, name: "ERROR_UNABLE_TO_JOIN_ROOM", "the room cannot be placed now: \(error.description)")
        }
    }

    /// Called from the loop with what the registry decided: the placements of sessions that
    /// ended here are released, on `joinLookups`, unless a join started the room again meanwhile.
    func releasePlacements(of actions: [RoomAction]) {
        for action in actions {
            guard case .persist(.sessionEnded(_, let roomID, _)) = action else { continue }
            releasePlacementIfUnused(roomID)
        }
    }

    /// Releases the room's placement here unless the room is in use on this node (members, or
    /// someone waiting to enter): after its session ended, and after a join placed it but was
    /// refused (a token for another room, a full room), so a placement never outlives its use
    /// and counts against this node's rooms. On `joinLookups`: a join placed before this was
    /// posted to the loop before the check.
    func releasePlacementIfUnused(_ roomID: String) {
        guard let placer = configuration.placer else { return }
        joinLookups.async { [self] in
            let inUse = (try? rtc.loop.sync(timeout: 5) { [self] in registry.liveRoomIDs.contains(roomID) }) ?? true
            guard !inUse else { return }
            do {
                try placer.release(roomID)
            } catch {
                logger.warning("could not release a room's placement", ["roomId": .string(roomID), "error": .string(String(describing: error))])
            }
        }
    }

    /// This node drains (docs/CLUSTER.md, "Draining"): each room with a live session here is
    /// placed on another node, and everyone in it is told where (`redirect`) and disconnected
    /// (1012), so they rejoin there: the SDK, `revue publish` and recorders follow. A WHIP
    /// publisher cannot be told and is disconnected. Returns each room and the node it went to
    /// (nil: no node could take it; its participants' rejoins place it when one can).
    public func moveRooms() -> [(room: String, to: String?)] {
        guard let placer = configuration.placer else { return [] }
        let live = (try? rtc.loop.sync(timeout: 5) { [self] in registry.liveRoomIDs }) ?? []
        var moves: [(room: String, to: String?)] = []
        for room in live {
            // On the placements' queue, so no join places the room here meanwhile.
            let target = joinLookups.sync { () -> Node? in
                do {
                    return try placer.move(room)
                } catch {
                    logger.error("could not move a room", ["roomId": .string(room), "error": .string(String(describing: error))])
                    return nil
                }
            }
            _ = try? rtc.loop.sync(timeout: 5) { [self] in
                for connection in registry.connections(roomID: room) {
                    if whip.isWHIP(connection) {
                        perform(registry.disconnected(connection: connection, now: Date().timeIntervalSince1970))
                        _ = whip.close(connection)
                        continue
                    }
                    if let target { gateway.send(ServerEnvelope(.redirect(url: target.signalingURL, nodeID: target.id)), to: connection) }
                    gateway.close(connection, code: 1012, reason: "this node is draining; the room moved to another node")
                }
            }
            logger.info("moved a room off this draining node", ["roomId": .string(room), "to": .string(target?.id ?? "nowhere yet")])
            moves.append((room, target?.id))
        }
        return moves
    }

    /// The base URL of the live node hosting `roomID` when it is another (the REST API forwards
    /// actions on the room there); nil when the room is here, nowhere, or on a dead node.
    public func hostURL(roomID: String) -> String? {
        guard let placer = configuration.placer else { return nil }
        do {
            guard case .elsewhere(let node)? = try placer.location(of: roomID) else { return nil }
            return node.url
        } catch {
            logger.warning("could not look up a room's node", ["roomId": .string(roomID), "error": .string(error.description)])
            return nil
        }
    }

    /// This node's heartbeat read the cluster: the live ACTIVE nodes are the doors a client may
    /// rejoin through when the node it came through dies (`joined`'s `doors`).
    public func updateCluster(_ nodes: [Node]) {
        let doors = nodes.filter { $0.alive && $0.state == .active }.sorted { $0.id < $1.id }.prefix(JoinedRoom.maximumDoors).map(\.signalingURL)
        clusterDoors.withLock { $0 = Array(doors) }
    }

    /// A `joined` with the cluster's doors in it; any other message as it is.
    func listingDoors(_ envelope: ServerEnvelope) -> ServerEnvelope {
        guard case .joined(var joined) = envelope.message else { return envelope }
        joined.doors = clusterDoors.withLock { $0 }
        return joined.doors.isEmpty ? envelope : ServerEnvelope(.joined(joined), id: envelope.id)
    }

    /// What this node carries, for its heartbeat: rooms with a live session, participants in
    /// them, tracks published.
    public func nodeLoad() -> NodeLoad {
        let snapshot = try? rtc.loop.sync(timeout: 5) { [self] in
            (registry.liveRoomIDs.count, registry.liveRoomIDs.reduce(0) { $0 + registry.activeParticipants(roomID: $1).count }, media.counts.producers)
        }
        guard let (rooms, participants, tracks) = snapshot else { return NodeLoad() }
        return NodeLoad(rooms: rooms, participants: participants, tracks: tracks)
    }

    /// The cluster's nodes as Prometheus gauges, one series per node (every node exports all of
    /// them, from PostgreSQL, so any node's `/metrics` shows the cluster).
    func clusterMetricLines() -> [String] {
        guard let placer = configuration.placer, let nodes = try? placer.store.nodes() else { return [] }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
        }
        let series: [(name: String, help: String, value: (Node) -> Double)] = [
            ("revue_node_up", "1 while the node's heartbeat is recent (10 s), else 0.", { $0.alive ? 1 : 0 }),
            ("revue_node_draining", "1 while the node drains (takes no new rooms).", { $0.state == .draining ? 1 : 0 }),
            ("revue_node_rooms_placed", "Rooms placed on the node.", { Double($0.placedRooms) }),
            ("revue_node_rooms_max", "Rooms the node takes at most.", { Double($0.maxRooms) }),
            ("revue_node_participants", "Participants in the node's rooms, at its last heartbeat.", { Double($0.load.participants) }),
            ("revue_node_tracks", "Tracks published into the node's rooms, at its last heartbeat.", { Double($0.load.tracks) }),
            ("revue_node_cpu_cores", "The node process's CPU, in cores, over its last heartbeat.", { $0.load.cpu }),
        ]
        var lines: [String] = []
        for metric in series {
            lines += ["# HELP \(metric.name) \(metric.help)", "# TYPE \(metric.name) gauge"]
            for node in nodes {
                let labels = "node=\"\(escaped(node.id))\",region=\"\(escaped(node.region))\""
                lines.append("\(metric.name){\(labels)} \(metric.value(node))")
            }
        }
        return lines
    }
}
