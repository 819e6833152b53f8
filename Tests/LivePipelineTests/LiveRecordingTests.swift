import Foundation
import JobSpec
import Jobs
import Media
import Platform
import TestSupport
import Testing

/// The product's reason to exist: a backend records a live room through the REST API, and a
/// worker joins it as a hidden RECV_ONLY participant and composites what it receives. A Chromium
/// on the join page (red camera, 440 Hz) and an aiortc WHIP publisher (blue, 1000 Hz).
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveRecordingTests {
        @Test func aLiveRoomIsRecordedThroughTheRESTAPI() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "fake-media")
            let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio))
            let page = try chromium.open(server.joinURL(room: room, token: try server.token(), name: "Chrome Red"))
            let log = try TemporaryDirectory(prefix: "whip")
            let whip = try server.whipPublisher(room: room, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: log.file("out"))
            defer { server.end(whip) }
            // Both are in and publishing: the page decodes aiortc.
            let ready = try Poll.until(40) {
                JoinPageStats.inbound(try JoinPageStats.of(page), kind: "video", "framesDecoded") > 30
            }
            #expect(ready, "the room did not come up: \((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "")")

            let startedAt = Date()
            let job = try server.startJob(.recording, room: room)
            let sessionID = server.rooms.liveSessionID(roomID: room)
            // The recorder is not a participant to the others.
            #expect(try page.evaluate("Object.keys(window.revue.participants).length") as? Int == 1)
            Thread.sleep(forTimeInterval: 8)
            defer { print("recorder log:\n" + server.attemptLog(job)) }
            let stoppedAt = Date()
            let finished = try server.stopJob(job)
            #expect(finished.sessionID == sessionID, "the recording is of the room's live session")
            let path = try server.mp4Path(finished)

            // It decodes cleanly, and lasts as long as it was asked to record.
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            let duration = try #require(try MediaProbe.probe(path).format.durationSeconds)
            let asked = stoppedAt.timeIntervalSince(startedAt)
            print("measured: live recording \(String(format: "%.2f", duration)) s for \(String(format: "%.2f", asked)) s between start and stop")
            #expect(abs(duration - asked) < 0.5, "\(duration) s recorded for \(asked) s")
            // Both tiles, with their colours and the names they joined with.
            let layout = try #require(try server.layouts(of: job).last?.tiles)
            #expect(Set(layout.map { $0.name }) == ["Chrome Red", "aiortc Blue"], "\(layout)")
            #expect(layout.allSatisfy { $0.content == "camera" })
            let picture = try MediaSamples.frame(of: path, at: duration - 2, width: 1280, height: 720)
            let left = picture.pixel(x: 320, y: 250), right = picture.pixel(x: 960, y: 250)
            let colours = [left, right].map { $0.distance(to: YUVColor(red: 0xD0, green: 0x20, blue: 0x20)) < 40 ? "red" : ($0.distance(to: YUVColor(red: 0x20, green: 0x40, blue: 0xD0)) < 40 ? "blue" : "\($0)") }
            #expect(Set(colours) == ["red", "blue"], "tiles are \(colours)")
            // Both tones are in the mix.
            let samples = try MediaSamples.monoAudio(of: path)
            let middle = samples[(2 * 48_000)..<min(samples.count, Int(duration - 1) * 48_000)]
            #expect(Goertzel.prominence(of: middle, frequency: 440) > 10)
            #expect(Goertzel.prominence(of: middle, frequency: 1000) > 10)
        }
    }
}
