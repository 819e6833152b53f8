import Cluster
import Foundation
import Testing

@testable import CLI

/// What `revue nodes` prints: one row per node, DEAD for a stale heartbeat, the rooms placed
/// against the limit, and a count of the live ones.
@Suite struct NodesCommandsTests {
    @Test func aTableOfLiveAndDeadNodes() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let nodes = [
            Node(id: "node-1", url: "http://192.0.2.11:8080", rtcAddress: "192.0.2.11:7000", region: "eu", cores: 2, maxRooms: 100,
                 load: NodeLoad(rooms: 3, participants: 7, tracks: 12, cpu: 0.214), heartbeatAt: now.addingTimeInterval(-1), alive: true, placedRooms: 3),
            Node(id: "node-2", url: "http://192.0.2.12:8080", state: .draining, heartbeatAt: now.addingTimeInterval(-2), alive: true),
            Node(id: "node-3", url: "http://192.0.2.13:8080", heartbeatAt: now.addingTimeInterval(-14), alive: false),
        ]
        let lines = NodeTable.lines(nodes, now: now)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("NODE"))
        #expect(lines[1].hasPrefix("node-1") && lines[1].contains("ACTIVE") && lines[1].contains("3/100") && lines[1].contains(" 7 ")
            && lines[1].contains("0.21") && lines[1].hasSuffix("1s ago"), "\(lines[1])")
        #expect(lines[2].contains("DRAINING") && lines[2].contains(" - "), "\(lines[2])")
        #expect(lines[3].contains("DEAD") && lines[3].hasSuffix("14s ago"), "\(lines[3])")
        #expect(lines[4] == "2 live of 3 nodes")
    }

    @Test func aNodesSignallingURLFollowsItsScheme() {
        #expect(Node(id: "a", url: "http://192.0.2.11:8080").signalingURL == "ws://192.0.2.11:8080/v2/rtc")
        #expect(Node(id: "a", url: "https://revue.example").signalingURL == "wss://revue.example/v2/rtc")
    }
}
