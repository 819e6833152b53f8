import Foundation
import MediaSource
import Platform
import RoomReceiver
import TestSupport
import Testing

/// `revue publish` as a person runs it: the built binary joins a real room server with a token,
/// publishes H.264 and Opus, prints a status line every few seconds, and leaves at SIGTERM; a
/// subscriber in the room (the live recorder's source) receives both tracks, the video as H.264.
extension RoomClientLiveSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct PublishCommandTests {
        @Test func revuePublishJoinsPublishesAndStopsAtSIGTERM() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let output = try TemporaryDirectory(prefix: "publish")
            let process = try Subprocess(RevueBinary.path, ["publish", room, "--name", "CLI Bot", "--codec", "h264", "--quality", "low",
                                                            "--process-audio", "--server", server.base, "--token", try server.token(),
                                                            "--log-level", "warning"],
                                         standardOutput: .file(output.file("stdout")), standardError: .file(output.file("stderr")))
            let printed = { (name: String) in (try? String(contentsOfFile: output.file(name), encoding: .utf8)) ?? "" }

            let token = try server.auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: room, participantID: "cli-watcher",
                                              expiresIn: 3600, recorder: true)
            let source = try LiveRoomSource(configuration: .init(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room, token: token))
            defer { source.leave() }
            var datagrams = 0
            var published: [TrackDescription] = []
            let started = Date()
            reading: while (datagrams < 300 || published.count < 2) && Date().timeIntervalSince(started) < 30 {
                switch source.next(until: Date().timeIntervalSince(started) + 0.1) {
                case .datagram: datagrams += 1
                case .event(.publish(_, let track), _): published.append(track)
                case .event, .idle, .caption, .captionsExpected: break
                case .ended:
                    Issue.record("the room ended")
                    break reading
                }
            }
            #expect(Set(published.map(\.kind)) == [.video, .audio], "\(published)")
            #expect(published.first { $0.kind == .video }?.codec.rawValue == "H264", "\(published)")
            #expect(datagrams >= 300, "\(datagrams) datagrams from revue publish")
            // At least one status line (every 3 s) before it is stopped.
            let statusShown = Poll.until(10) { printed("stdout").contains("publish: ") }
            process.signal(SIGTERM)
            let termination = process.wait(timeout: 15)
            print("revue publish printed:\n" + printed("stdout") + printed("stderr"))
            #expect(statusShown)
            #expect(termination == .exited(0))
            let status = printed("stdout").split(separator: "\n").first { $0.hasPrefix("publish: ") }.map(String.init) ?? ""
            #expect(status.contains("H264") && status.contains("fps") && status.contains("kb/s"), "\(status)")
            #expect(printed("stdout").contains("published "), "the summary at the end")
            #expect(printed("stderr").contains("joined room \(room) as CLI Bot"))
        }
    }
}
