import Cluster
import Foundation
import Postgres
@testable import RevueSDK
import TestSupport
import Testing

/// Twenty-one rooms, each started by an SDK participant coming in through a door chosen at random
/// among three nodes (each in a network namespace of its own, `ClusterNetwork`), spread over the
/// nodes within their room limit (docs/CLUSTER.md, "Placement"); one more room than the limits
/// hold is refused with 3047 and a reason.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct ClusterPlacementTests {
        @Test func roomsThroughRandomDoorsSpreadWithinTheLimits() async throws {
            // Seven rooms each at most: 21 in all, so the rooms must spread and the limit bites.
            let (nodes, local) = try await RevueSDKTests.offMain { try ClusterNetwork.shared().startNodes(3, arguments: { _ in ["--max-rooms", "7"] }) }
            let store = NodeStore(pool: PostgresPool(local, size: 2))
            #expect(await RevueSDKTests.waitUntil(15) { ((try? store.nodes()) ?? []).filter(\.alive).count == 3 })

            var random = SeededGenerator(seed: 24)
            var rooms: [Room] = []
            var doors: [Int] = []
            for index in 0..<21 {
                let door = Int.random(in: 0..<3, using: &random)
                doors.append(door)
                let room = try VideoSDK.createRoom(roomId: try nodes[0].makeRoom(), token: try nodes[door].token(), participantName: "P\(index)",
                                                   micEnabled: false, camEnabled: false, mode: .SIGNALLING_ONLY, signalingURL: nodes[door].signalingURL)
                try await room.join()
                rooms.append(room)
            }
            let placed = try store.nodes().sorted { $0.id < $1.id }
            let throughDoor = (0..<3).map { door in "node-\(door + 1): \(doors.filter { $0 == door }.count)" }
            print("cluster: 21 rooms through random doors (\(throughDoor.joined(separator: ", "))); rooms per node: "
                + placed.map { "\($0.id): \($0.placedRooms)" }.joined(separator: ", "))
            #expect(placed.map(\.placedRooms) == [7, 7, 7], "\(placed)")
            #expect(rooms.allSatisfy { $0.state == .CONNECTED })

            // The 22nd room has nowhere to go: refused with the reason.
            let extra = try VideoSDK.createRoom(roomId: try nodes[0].makeRoom(), token: try nodes[1].token(), participantName: "Extra",
                                                micEnabled: false, camEnabled: false, mode: .SIGNALLING_ONLY, signalingURL: nodes[1].signalingURL)
            let refused = await #expect(throws: VideoSDKError.self) { try await extra.join() }
            print("cluster: the 22nd room: \(refused.map { "\($0.code) \($0.message)" } ?? "joined")")
            #expect(refused?.code == 3047 && refused?.message.contains("full") == true, "\(String(describing: refused))")
            for room in rooms { try await room.leave() }
            // Each room's placement goes with its session.
            #expect(await RevueSDKTests.waitUntil(15) { ((try? store.nodes()) ?? []).allSatisfy { $0.placedRooms == 0 } }, "\((try? store.nodes()) ?? [])")
        }
    }
}
