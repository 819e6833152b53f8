import Cluster
import Foundation
import Platform
import Postgres
@testable import RevueSDK
import TestSupport
import Testing

/// A node of a two-node cluster drained while a room lives on it (docs/CLUSTER.md, "Draining"):
/// `revue nodes drain node-a` makes it take no new rooms; at its deadline the room moves to node
/// B, both SDK participants are told and come back in on B (RECONNECTING, then CONNECTED), and
/// see each other's cameras again; node A exits on its own and its row is gone.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10)), .oneRoomAtATime) struct ClusterDrainTests {
        @Test func aDrainedNodesRoomMovesWithEveryoneInItAndTheNodeExits() async throws {
            let a = try RevueServe(arguments: ["--node-id", "node-a"], host: "127.0.0.2")
            let b = try RevueServe(arguments: ["--node-id", "node-b"], host: "127.0.0.3", databaseURL: a.databaseURL)
            let nodes = NodeStore(pool: PostgresPool(a.databaseURL, size: 2))
            #expect(await RevueSDKTests.waitUntil(15) { ((try? nodes.nodes()) ?? []).filter(\.alive).count == 2 })
            let roomID = try a.makeRoom()

            // Ann comes in through A (the room is placed there), Bob through B (sent to A).
            func enter(_ name: String, through node: RevueServe, camera: CustomStreamTrack) async throws -> (Room, EventLog) {
                let room = try VideoSDK.createRoom(roomId: roomID, token: try node.token(), participantName: name, micEnabled: false, camEnabled: true,
                                                   customCameraTrack: camera, signalingURL: node.signalingURL)
                let log = EventLog()
                room.addEventListener(log)
                try await room.join()
                return (room, log)
            }
            // Bob's camera is a file: a device opens one track at a time, as a real camera does.
            let directory = try TemporaryDirectory(prefix: "drain")
            let (bobCamera, device) = try await RevueSDKTests.testsrc2Camera(in: directory, rate: 15, seconds: 2)
            defer { VideoSDK.removeDevice(deviceId: device) }
            let (ann, annLog) = try await enter("Ann", through: a, camera: try await ReconnectTests.smallCamera())
            defer { Task { @MainActor in try? await ann.leave() } }
            #expect(await annLog.wait(for: "streamEnabled local VIDEO"), "\(annLog.events)")
            let (bob, bobLog) = try await enter("Bob", through: b, camera: bobCamera)
            defer { Task { @MainActor in try? await bob.leave() } }
            #expect(await bobLog.wait(for: "streamEnabled Ann VIDEO"), "\(bobLog.events)")
            #expect(await RevueSDKTests.waitUntil(30) { ReconnectTests.decoded(bob, of: "Ann") > 10 && ReconnectTests.decoded(ann, of: "Bob") > 10 })
            #expect(try RoomPlacer(store: nodes, nodeID: "node-b").location(of: roomID) == .elsewhere(try #require(try nodes.node("node-a"))))
            let (annBefore, bobBefore) = (annLog.events.count, bobLog.events.count)

            // Drained with a 2 s deadline: no new room goes to A meanwhile.
            let drained = Date()
            let drain = try Subprocess.run(RevueBinary.path, ["nodes", "drain", "node-a", "--deadline", "2", "--database-url", a.databaseURL])
            #expect(drain.succeeded && drain.standardOutput.contains("DRAINING"), "\(drain.standardOutput) \(drain.standardError)")
            let other = try a.makeRoom()
            #expect(try RoomPlacer(store: nodes, nodeID: "node-a").place(other) == .elsewhere(try #require(try nodes.node("node-b"))))

            // At the deadline the room moves to B; both come back in there.
            #expect(await annLog.wait(timeout: 30) { $0.dropFirst(annBefore).contains("state CONNECTED") }, "\(annLog.since(annBefore))")
            #expect(await bobLog.wait(timeout: 30) { $0.dropFirst(bobBefore).contains("state CONNECTED") }, "\(bobLog.since(bobBefore))")
            let back = Date().timeIntervalSince(drained)
            #expect(annLog.since(annBefore).first == "state RECONNECTING", "\(annLog.since(annBefore))")
            let (annAgain, bobAgain) = (ReconnectTests.decoded(bob, of: "Ann"), ReconnectTests.decoded(ann, of: "Bob"))
            #expect(await RevueSDKTests.waitUntil(30) {
                ReconnectTests.decoded(bob, of: "Ann") > annAgain + 10 && ReconnectTests.decoded(ann, of: "Bob") > bobAgain + 10
            }, "they see each other again on node-b")
            #expect(try RoomPlacer(store: nodes, nodeID: "node-a").location(of: roomID) == .elsewhere(try #require(try nodes.node("node-b"))))
            print("cluster drain: node-a drained with a 2 s deadline; both participants back in on node-b \(String(format: "%.1f", back)) s after the drain")
            #expect(b.log.contains("\"roomId\":\"\(roomID)\""), "node-b hosts the room now")

            // A exits on its own and leaves the cluster.
            #expect(a.process.wait(timeout: 20) == .exited(0), "\(a.log.suffix(1500))")
            #expect(try nodes.node("node-a") == nil)
            #expect(a.log.contains("moved this node's rooms"), "\(a.log.suffix(1500))")
        }
    }
}
