import Foundation
import JobSpec
import Synchronization
import TestSupport
import Testing
import WebSocket

extension HardeningTests {
    /// Finding 10: 10,000 hub slots could be taken before any token was seen, and each held up to
    /// 1 MiB of unfinished message (400 cost 397 MB). Now an address holds 32 connections that
    /// have not shown a good token, each held to 32 KiB messages, each closed after 10 s.
    @Test func connectionsWithoutATokenCostLittleAndNotForLong() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        var sockets: [RawWebSocket] = []
        var refused = 0, tooBig = 0
        let report = try room.during("finding 10, 8 addresses holding 32 signalling connections each without a token, unfinished frames", settle: 12) {
            // Forty an address, each holding a message just under the limit, unfinished: 32 are
            // kept (in whatever order the hub adopts them), 8 are closed at once.
            for source in 2...9 {
                for _ in 0..<40 {
                    let socket = try RawWebSocket(server, from: "127.0.0.\(source)")
                    try? socket.sendUnfinished(claimed: 30 * 1024, sent: 20 * 1024)
                    sockets.append(socket)
                }
            }
            Thread.sleep(forTimeInterval: 1)
            refused = sockets.filter { $0.closeCode(within: 0.01) == 1008 }.count
            // A frame past the limit a connection has before its token is refused from its header.
            for _ in 0..<16 {
                let socket = try RawWebSocket(server, from: "127.0.0.10")
                try socket.sendUnfinished(claimed: 1 << 20, sent: 16 * 1024)
                if socket.closeCode(within: 5) == 1009 { tooBig += 1 }
            }
        }
        print("measured: finding 10, \(refused) of 64 connections past 32 an address refused (1008), \(tooBig) of 16 frames over 32 KiB refused (1009)")
        #expect(refused == 64 && tooBig == 16)
        #expect(report.alive && report.unanswered == 0 && report.frames > 0)
        #expect(report.peakResidentMiB - report.before.residentMiB < 40, "unfinished frames cost \(report.peakResidentMiB - report.before.residentMiB) MiB")
        // Ten seconds after they opened, the ones holding unfinished frames were closed too.
        let closed = sockets.filter { $0.closeCode(within: 1) == 1008 }.count
        print("measured: finding 10, \(closed) of \(sockets.count) connections closed by now (the join deadline, or the address's limit)")
        #expect(closed == sockets.count)
    }

    /// Finding 12: the room's row was read on the hub's thread, so 20 joins took another member's
    /// signalling round trip to about 10 s. Now only the token is checked there.
    @Test func joinsDoNotHoldOtherMembersUp() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let joins = Atomic<Int>(0)
        let report = room.during("finding 12, 20 connections joining and leaving as fast as they can for 10 s") {
            let deadline = Date().addingTimeInterval(10)
            Attacks.onThreads(20) { index in
                while Date() < deadline {
                    guard let socket = try? Attacks.signalling(server),
                          let token = try? server.token()
                    else { continue }
                    try? socket.send(text: #"{"v":1,"type":"join","id":"j","token":"\#(token)","roomId":"\#(room.room)","name":"J\#(index)","mode":"SIGNALLING_ONLY"}"#)
                    if Attacks.answer(on: socket, to: "j", within: 10)?["type"]?.stringValue == "joined" { joins.add(1, ordering: .relaxed) }
                    _ = socket.close()
                }
            }
        }
        print("measured: finding 12, \(joins.load(ordering: .relaxed)) joins in 10 s beside the probe")
        #expect(joins.load(ordering: .relaxed) >= 20)
        #expect(report.alive && report.unanswered == 0 && report.frames > 0)
    }

    /// A join, a burst of messages behind it while the room is looked up, and a hang-up: the
    /// disconnection is never dropped with the burst, so no member is seated for a connection
    /// that is gone (the review of this change found it could be).
    @Test func aJoinFollowedByABurstAndAHangUpLeavesNoGhost() throws {
        let server = try RevueServe()
        let room = try LegitimateRoom(server)
        let report = try room.during("a review finding: 20 joins each followed by 150 messages in the same write, then a hang-up") {
            for index in 0..<20 {
                let socket = try RawWebSocket(server, from: "127.0.0.2")
                var frames: [UInt8] = []
                let join = JSONValue.object(["v": .number(1), "type": .string("join"), "id": .string("j"), "token": .string(try server.token()),
                                             "roomId": .string(room.room), "name": .string("Ghost \(index)"), "mode": .string("SIGNALLING_ONLY")])
                frames += WebSocketFrame(opcode: .text, maskingKey: 7, payload: Array(join.text.utf8)).serialize()
                for message in 0..<150 {
                    frames += WebSocketFrame(opcode: .text, maskingKey: 7, payload: Array(#"{"v":1,"type":"mediaState","id":\#(message),"mic":false,"webcam":false}"#.utf8)).serialize()
                }
                try TCP.send(socket.descriptor, frames)
            }
        }
        var participants = try Self.activeParticipants(server, room: room.room)
        let deadline = Date().addingTimeInterval(15)
        while participants > 3 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.25)
            participants = try Self.activeParticipants(server, room: room.room)
        }
        print("measured: 20 joins with a burst and a hang-up: \(participants) participants remain (Ann, the watcher, the probe)")
        #expect(participants == 3)
        #expect(report.alive && report.unanswered == 0)
    }
}
