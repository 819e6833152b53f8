import APIModels
import Cluster
import Foundation
import Jobs
import JobSpec
import Postgres
import Rooms
import Synchronization
import Testing
import TestSupport

/// Placement on a real PostgreSQL: two nodes racing for a room agree, rooms spread evenly within
/// each node's limit, the door's region comes first, a draining node takes none, and a dead
/// node's rooms are placed again and its rows swept.
@Suite(.serialized) struct RoomPlacerTests {
    let pool: PostgresPool
    let store: NodeStore

    init() throws {
        pool = PostgresPool(try JobDatabase.make(), size: 6)
        store = NodeStore(pool: pool)
    }

    func register(_ id: String, region: String = "", maxRooms: Int = 1_000) throws {
        try store.register(Node(id: id, url: "http://\(id).test:8080", rtcAddress: "192.0.2.1:7000", region: region, cores: 2, maxRooms: maxRooms))
    }

    func makeRoom() throws -> String { try RoomStore(pool: pool).create(RoomRequest()).id }

    /// The node a placement names.
    func nodeID(_ placement: RoomPlacer.Placement, door: String) -> String {
        switch placement {
        case .here: door
        case .elsewhere(let node): node.id
        }
    }

    func setHeartbeat(_ id: String, secondsAgo: Int) throws {
        _ = try pool.with { try $0.query("UPDATE nodes SET heartbeat_at = now() - make_interval(secs => $2) WHERE id = $1", [id, secondsAgo]) }
    }

    @Test func twoNodesRacingForARoomAlwaysAgree() throws {
        try register("node-a")
        try register("node-b")
        let doors = [RoomPlacer(store: store, nodeID: "node-a"), RoomPlacer(store: store, nodeID: "node-b")]
        var disagreements: [String] = []
        var where_: [String: Int] = [:]
        for _ in 0..<100 {
            let room = try makeRoom()
            let answers = Mutex<[Int: String]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                let placed = try? doors[index].place(room)
                answers.withLock { $0[index] = placed.map { nodeID($0, door: doors[index].nodeID) } ?? "failed" }
            }
            let both = answers.withLock { $0 }
            if both[0] != both[1] || both[0] == "failed" { disagreements.append("\(room): \(both)") }
            where_[both[0] ?? "?", default: 0] += 1
            let rows = try pool.with { try $0.query("SELECT count(*)::int8 AS n FROM room_placements WHERE room_id = $1", [room]).first?.decode("n", as: Int.self) }
            #expect(rows == 1)
        }
        print("100 races of two nodes for a room: \(disagreements.count) disagreements; placed \(where_.sorted { $0.key < $1.key })")
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func roomsSpreadEvenlyWithinEachNodesLimitThenNoneIsAvailable() throws {
        for id in ["node-1", "node-2", "node-3"] { try register(id, maxRooms: 10) }
        var generator = SeededGenerator(seed: 24)
        var placed: [String: Int] = [:]
        for _ in 0..<30 {
            let door = ["node-1", "node-2", "node-3"].randomElement(using: &generator) ?? "node-1"
            let placer = RoomPlacer(store: store, nodeID: door)
            placed[nodeID(try placer.place(try makeRoom()), door: door), default: 0] += 1
        }
        print("30 rooms through random doors: \(placed.sorted { $0.key < $1.key })")
        #expect(placed == ["node-1": 10, "node-2": 10, "node-3": 10])
        #expect { try RoomPlacer(store: store, nodeID: "node-1").place(try makeRoom()) } throws: { ($0 as? ClusterError)?.kind == .noNodeAvailable }
        // A room placed already is still found when every node is full.
        let room = try pool.with { try $0.query("SELECT room_id FROM room_placements LIMIT 1").first?.decode("room_id", as: String.self) } ?? ""
        #expect(throws: Never.self) { try RoomPlacer(store: store, nodeID: "node-1").place(room) }
    }

    @Test func theDoorsRegionComesFirstAndATieStaysAtTheDoor() throws {
        try register("eu-1", region: "eu")
        try register("us-1", region: "us")
        try register("us-2", region: "us")
        // A tie (no rooms anywhere): the door itself.
        #expect(try RoomPlacer(store: store, nodeID: "us-2").place(try makeRoom()) == .here)
        // The door's region, though eu-1 is emptier.
        for _ in 0..<3 {
            #expect(nodeID(try RoomPlacer(store: store, nodeID: "us-1").place(try makeRoom()), door: "us-1").hasPrefix("us-"))
        }
        #expect(try RoomPlacer(store: store, nodeID: "eu-1").place(try makeRoom()) == .here)
    }

    @Test func aDrainingNodeTakesNoNewRoomsButKeepsItsOwn() throws {
        try register("node-a")
        try register("node-b")
        let b = RoomPlacer(store: store, nodeID: "node-b")
        let kept = try makeRoom()
        #expect(try b.place(kept) == .here)
        try store.drain("node-b", deadline: Date().addingTimeInterval(30))
        for _ in 0..<5 {
            #expect(nodeID(try b.place(try makeRoom()), door: "node-b") == "node-a")
        }
        #expect(try b.place(kept) == .here, "its own room stays while it lives")
        #expect(try store.node("node-b")?.state == .draining)
        #expect(throws: ClusterError.self) { try store.drain("node-z", deadline: Date()) }
    }

    @Test func aDeadNodesRoomsArePlacedAgainAndItsRowsSwept() throws {
        try register("node-a")
        try register("node-b")
        let room = try makeRoom()
        #expect(try RoomPlacer(store: store, nodeID: "node-b").place(room) == .here)
        // A session of node-b's, ongoing, with someone in it.
        _ = try pool.with { connection in
            try connection.query("INSERT INTO sessions (id, room_id, started_at, node_id) VALUES ('s-b', $1, now(), 'node-b')", [room])
            try connection.query("INSERT INTO session_participants (session_id, participant_id, first_joined_at) VALUES ('s-b', 'ann', now())")
            try connection.query("INSERT INTO participant_time_logs (session_id, participant_id, started_at) VALUES ('s-b', 'ann', now())")
        }
        let a = RoomPlacer(store: store, nodeID: "node-a")
        #expect(try a.place(room) == .elsewhere(try #require(try store.node("node-b"))), "alive: the room stays on node-b")
        try setHeartbeat("node-b", secondsAgo: 11)
        #expect(try store.node("node-b")?.alive == false)
        #expect(try a.location(of: room) == nil, "a placement on a dead node is no placement")
        #expect(try a.place(room) == .here, "placed again on a live node")
        let sweep = try store.sweepDeadNodes()
        #expect(sweep.deadNodes == ["node-b"] && sweep.sessionsEnded == 1, "\(sweep)")
        let left = try pool.with { connection in
            (try connection.query("SELECT count(*)::int8 AS n FROM room_placements WHERE node_id = 'node-b'").first?.decode("n", as: Int.self),
             try connection.query("SELECT count(*)::int8 AS n FROM sessions WHERE node_id = 'node-b' AND ended_at IS NULL").first?.decode("n", as: Int.self),
             try connection.query("SELECT leave_reason FROM participant_time_logs WHERE session_id = 's-b'").first?.decode("leave_reason", as: Int.self))
        }
        #expect(left.0 == 0 && left.1 == 0 && left.2 == 1001, "\(left)")
        #expect(try store.sweepDeadNodes().deadNodes.isEmpty, "idempotent")
        // An hour dead: forgotten.
        try setHeartbeat("node-b", secondsAgo: 3_700)
        #expect(try store.sweepDeadNodes().nodesForgotten == 1)
        #expect(try store.node("node-b") == nil)
    }

    @Test func aHeartbeatWritesTheLoadAndSeesADrain() throws {
        let node = Node(id: "node-h", url: "http://node-h.test:8080", rtcAddress: "192.0.2.9:7000", cores: 2)
        let drained = Mutex<Node?>(nil)
        let heartbeat = NodeHeartbeat(store: store, node: node, load: { NodeLoad(rooms: 2, participants: 5, tracks: 7) },
                                      onStateChanged: { row in drained.withLock { $0 = row } })
        try heartbeat.start()
        defer { heartbeat.stop() }
        var row: Node?
        for _ in 0..<50 where row?.load.participants != 5 {
            Thread.sleep(forTimeInterval: 0.1)
            row = try store.node("node-h")
        }
        #expect(row?.load == NodeLoad(rooms: 2, participants: 5, tracks: 7, cpu: row?.load.cpu ?? -1) && row?.alive == true, "\(String(describing: row))")
        try store.drain("node-h", deadline: Date().addingTimeInterval(5))
        for _ in 0..<50 where drained.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.1) }
        #expect(drained.withLock { $0?.state } == .draining)
        // Forgotten while it lived (an operator deleted it): written again.
        try store.remove("node-h")
        for _ in 0..<50 where (try? store.node("node-h")) == nil { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try store.node("node-h")?.state == .active)
    }
}
