import Foundation
import JobSpec
import Synchronization
import TestSupport
import Testing
import WebSocket

/// The hardening suite's socket flood, in a suite of its own so that it takes a turn with the
/// live room suites (a wait outside any test's time limit): 200 flooding sockets beside a room
/// of browsers starved both on two cores (a probe unanswered for 5 s, and live captions late, in
/// two CI runs). And a turn with `HardeningTests`' attacks: beside one, its probe went
/// unanswered for 4 s in another (`.oneAttackAtATime`, which takes the room's turn after).
@Suite(.live, .timeLimit(.minutes(10)), .oneAttackAtATime(withARoomsTurn: true)) struct SocketFloodTests {
    /// Finding 10, the other half: sockets that do not read had 4 MiB of replies queued each (200
    /// added 359 MB, never returned). Now a member may send 50 messages a second (200 at once),
    /// a peer 1 MiB behind is dropped, all together 128 MiB, and the memory goes back.
    @Test func socketsThatDoNotReadAreBounded() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let rooms = try (0..<4).map { _ in try server.makeRoom() }
        var sockets: [RawWebSocket] = []
        let report = try room.during("finding 10, 200 joined members that never read, each sending requests as fast as it can for 10 s", settle: 12) {
            for index in 0..<200 {
                let socket = try RawWebSocket(server, from: "127.0.0.\(2 + index / 30)")
                try socket.send(text: #"{"v":1,"type":"join","id":"j","token":"\#(try server.token())","roomId":"\#(rooms[index % 4])","name":"Reader\#(index)","mode":"SIGNALLING_ONLY"}"#)
                sockets.append(socket)
            }
            let request = #"{"v":1,"type":"pin","id":"p","participantId":"nobody-at-all","pinType":"CAM"}"#
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                for socket in sockets { try? socket.send(text: request) }
            }
        }
        let closedForRate = sockets.filter { $0.closeCode(within: 0.2) == 1008 }.count
        print("measured: finding 10, \(closedForRate) of 200 non-reading members closed (1008) for their rate or their queue")
        #expect(report.alive && report.unanswered == 0 && report.frames > 0)
        #expect(report.peakResidentMiB - report.before.residentMiB < 200, "RSS grew by \(report.peakResidentMiB - report.before.residentMiB) MiB")
        let settled = try #require(report.afterSettling)
        #expect(settled.residentMiB - report.before.residentMiB < 40, "the memory was not returned: \(settled.residentMiB) MiB")
    }
}
