import APIModels
import Cluster
import Foundation
import Jobs
import JobSpec
import Postgres
import Rooms
import Publisher
import Signaling
import TestSupport

/// What the cluster costs (`bench/cluster`, docs/CLUSTER.md).
///
/// Doors: two `revue serve` nodes (each in a network namespace of its own, `ClusterNetwork`), a
/// room live on node B; a signalling-only participant joins and leaves JOINS times through node
/// A's door (answered `redirect`, then joined at B) and, alternating, through B's (the reference:
/// the same join with no redirect). The time from the first connection to `joined`, median and
/// 90th percentile of each, and their ratio.
///
/// Placement: three node rows, ROOMS rooms placed through random doors by `RoomPlacer` (the
/// transaction with its advisory lock, the candidate query and `INSERT … ON CONFLICT`), one after
/// another; rooms per node, and the time per placement beside the reference, a plain
/// single-row `INSERT … ON CONFLICT` into a table of the same shape (the least a placement that
/// writes one row can cost).
enum ClusterBench {
    static func run(joins: Int, rooms: Int) throws {
        try doors(joins: joins)
        try placement(rooms: rooms)
    }

    static func doors(joins: Int) throws {
        let network = try ClusterNetwork.shared()
        let (nodes, _) = try network.startNodes(2)
        let (a, b) = (nodes[0], nodes[1])
        let room = try a.makeRoom()
        // The first member comes in through B: the room is placed there.
        let anchor = try RoomPublisher(configuration: .init(signalingURL: b.signalingURL, roomID: room, token: try b.token(),
                                                            participantName: "Anchor", camera: nil, microphone: nil, mode: .signallingOnly))
        defer { anchor.leave() }
        var wrong: [Double] = [], right: [Double] = []
        for index in 0..<(2 * joins) {
            let door = index % 2 == 0 ? a : b
            let started = Date()
            let member = try RoomPublisher(configuration: .init(signalingURL: door.signalingURL, roomID: room, token: try door.token(),
                                                                participantName: "Member", camera: nil, microphone: nil, mode: .signallingOnly))
            let took = Date().timeIntervalSince(started) * 1000
            member.leave()
            if index % 2 == 0 { wrong.append(took) } else { right.append(took) }
        }
        let (w, r) = (Summary(wrong), Summary(right))
        print(String(format: "cluster doors: %d joins each; through the wrong door (redirected): median %.1f ms, p90 %.1f ms; "
                         + "through the right door: median %.1f ms, p90 %.1f ms; wrong / right %.2f×",
                     joins, w.median, w.p90, r.median, r.p90, w.median / max(0.001, r.median)))
    }

    static func placement(rooms count: Int) throws {
        let url = try JobDatabase.make()
        let pool = PostgresPool(url, size: 2)
        let store = NodeStore(pool: pool)
        let ids = ["node-1", "node-2", "node-3"]
        for id in ids { try store.register(Node(id: id, url: "http://\(id).test:8080", maxRooms: 1_000)) }
        let roomStore = RoomStore(pool: pool)
        let roomIDs = try (0..<count).map { _ in try roomStore.create(RoomRequest()).id }
        var random = SeededGenerator(seed: 200)
        var placing: [Double] = []
        for room in roomIDs {
            let placer = RoomPlacer(store: store, nodeID: ids[Int.random(in: 0..<ids.count, using: &random)])
            let started = Date()
            _ = try placer.place(room)
            placing.append(Date().timeIntervalSince(started) * 1000)
        }
        let perNode = try store.nodes().sorted { $0.id < $1.id }.map { "\($0.id): \($0.placedRooms)" }

        // The reference: the same number of one-row upserts into a table shaped like the placements.
        let connection = try PostgresConnection(url)
        _ = try connection.query("CREATE TABLE bench_placements (room_id text PRIMARY KEY, node_id text NOT NULL, placed_at timestamptz NOT NULL DEFAULT now())")
        var inserting: [Double] = []
        for (index, room) in roomIDs.enumerated() {
            let started = Date()
            _ = try connection.query("INSERT INTO bench_placements (room_id, node_id) VALUES ($1, $2) ON CONFLICT (room_id) DO NOTHING",
                                     [room, ids[index % ids.count]])
            inserting.append(Date().timeIntervalSince(started) * 1000)
        }
        let (p, i) = (Summary(placing), Summary(inserting))
        print(String(format: "cluster placement: %d rooms through random doors of 3 nodes: %@; per placement median %.2f ms, p90 %.2f ms; "
                         + "a plain upsert median %.2f ms, p90 %.2f ms; placement / upsert %.2f×",
                     count, perNode.joined(separator: ", "), p.median, p.p90, i.median, i.p90, p.median / max(0.001, i.median)))
    }

    /// The median and 90th percentile of some durations.
    struct Summary {
        let median: Double
        let p90: Double
        init(_ values: [Double]) {
            let sorted = values.sorted()
            median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
            p90 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        }
    }
}
