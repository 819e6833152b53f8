import Foundation
import MediaSource
import Platform
import RoomReceiver
import TestSupport
import Testing

/// A recorder whose pipeline runs late (a busy machine) asks its live source for items with
/// deadlines already past. The source must still read what the server sends: before it did, such
/// a recorder never heard the server's ICE answers, never connected, and recorded placeholders
/// for the whole job.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LateLiveSourceTests {
        @Test func aSourceAskedOnlyWithPastDeadlinesStillConnectsAndReceives() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let log = try TemporaryDirectory(prefix: "whip")
            let whip = try server.whipPublisher(room: room, name: "Late", colour: "2040D0", tone: 1000, log: log.file("out"))
            defer { server.end(whip) }
            let publishing = Poll.until(30) {
                ((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "").contains("\"state\": \"connected\"")
            }
            #expect(publishing, "aiortc did not publish: \((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "")")

            let token = try server.auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: room, participantID: "late-recorder",
                                              expiresIn: 3600, recorder: true)
            let source = try LiveRoomSource(configuration: .init(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room, token: token))
            defer { source.leave() }
            var datagrams = 0
            var published: [TrackDescription] = []
            let started = Date()
            // Every deadline is already past, as for a pipeline seconds behind; the time limit only
            // ends a test that fails.
            reading: while datagrams < 200 && Date().timeIntervalSince(started) < 30 {
                switch source.next(until: -1) {
                case .datagram: datagrams += 1
                case .event(.publish(_, let track), _): published.append(track)
                case .event, .idle, .caption, .captionsExpected: Thread.sleep(forTimeInterval: 0.002)
                case .ended:
                    Issue.record("the room ended")
                    break reading
                }
            }
            #expect(Set(published.map(\.kind)) == [.video, .audio], "\(published)")
            #expect(datagrams >= 200, "\(datagrams) datagrams came to a source asked only with past deadlines")
        }
    }
}
