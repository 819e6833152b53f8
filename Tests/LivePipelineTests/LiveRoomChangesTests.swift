import Foundation
import JobSpec
import Jobs
import Media
import Platform
import TestSupport
import Testing

/// A live room that changes while it records: Chromium (red) is in the room when the recording
/// starts; aiortc (blue) joins mid-recording and appears; Chromium turns its camera off and gets
/// the placeholder; Chromium shares its screen and the share takes the main area; aiortc leaves
/// and is removed. The layout the recorder composited is read from the job's events, and the
/// pictures from the MP4.
extension LivePipelineSuites {
    @Suite(.browser, .timeLimit(.minutes(10))) struct LiveRoomChangesTests {
        /// The layouts the job's recorder composited so far (its events), in order; each wait
        /// looks only at layouts after the one the previous wait found, so the changes are seen
        /// in the order they were made.
        final class Layouts {
            typealias Tile = (name: String, content: String)
            let server: RoomServerHarness
            let job: Job
            private(set) var seen: [(at: Double, tiles: [Tile])] = []
            private var cursor = 0
            init(_ server: RoomServerHarness, _ job: Job) {
                self.server = server
                self.job = job
            }
            /// Waits for a layout that satisfies `condition`; its media time.
            func wait(_ seconds: Double, _ condition: @escaping ([Tile]) -> Bool) -> Double? {
                var at: Double?
                _ = Poll.until(seconds) {
                    self.seen = (try? self.server.layouts(of: self.job)) ?? self.seen
                    guard self.cursor < self.seen.count,
                          let index = self.seen[self.cursor...].firstIndex(where: { condition($0.tiles) }) else { return false }
                    self.cursor = index + 1
                    at = self.seen[index].at
                    return true
                }
                return at
            }
            var text: String { seen.map { "\($0.at): " + $0.tiles.map { "\($0.name)/\($0.content)" }.joined(separator: ", ") }.joined(separator: "\n") }
        }

        @Test func joinsCameraOffScreenShareAndLeavesShowInTheLiveRecording() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let media = try TemporaryDirectory(prefix: "fake-media")
            let red = try FakeMedia(colour: "0xD02020", tone: 440, in: media, name: "red")
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: red.video, audio: red.audio)
                + ["--auto-select-desktop-capture-source=Entire screen"])
            let page = try chromium.open(server.joinURL(room: room, token: try server.token(), name: "Chrome Red"))
            let inRoom = try Poll.until(40) {
                try page.evaluate("window.revue && window.revue.publisherState") as? String == "connected"
            }
            #expect(inRoom, "Chromium did not publish")

            let job = try server.startJob(.recording, room: room)
            defer { print("recorder log:\n" + server.attemptLog(job)) }
            let layouts = Layouts(server, job)
            defer { print("layouts:\n" + layouts.text) }
            let alone = layouts.wait(20) { $0.map { $0.name } == ["Chrome Red"] && $0.allSatisfy { $0.content == "camera" } }
            #expect(alone != nil, "Chromium alone was never laid out")
            // Two seconds of Chromium alone, so the picture sampled from them is its camera at
            // full rate, not its first frames.
            Thread.sleep(forTimeInterval: 2)

            // aiortc joins mid-recording.
            let log = try TemporaryDirectory(prefix: "whip")
            let whip = try server.whipPublisher(room: room, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: log.file("out"))
            defer { server.end(whip) }
            let joined = layouts.wait(30) { Set($0.map { $0.name }) == ["Chrome Red", "aiortc Blue"] }
            #expect(joined != nil, "aiortc never appeared: \((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "")")
            // Let the blue picture arrive before the next change.
            Thread.sleep(forTimeInterval: 2)

            // Chromium turns its camera off.
            _ = try page.evaluate("setCamera(false)")
            let cameraOff = layouts.wait(20) { $0.contains { $0.name == "Chrome Red" && $0.content == "cameraOff" } }
            #expect(cameraOff != nil, "Chromium's camera-off never reached the layout")
            Thread.sleep(forTimeInterval: 1.5)

            // Chromium shares its screen: the share takes the main area.
            let shared = try page.evaluate("toggleShare().then(() => revue.sharing, e => 'refused: ' + e)", userGesture: true)
            #expect(shared as? Bool == true, "getDisplayMedia: \(String(describing: shared))")
            let sharing = layouts.wait(30) { $0.first?.content == "screenShare" && $0.first?.name == "Chrome Red" }
            #expect(sharing != nil, "the screen share never took the main area")
            Thread.sleep(forTimeInterval: 1.5)

            // aiortc leaves (WHIP DELETE).
            server.end(whip)
            let left = layouts.wait(30) { !$0.contains { $0.name == "aiortc Blue" } && !$0.isEmpty }
            #expect(left != nil, "aiortc was never removed")
            Thread.sleep(forTimeInterval: 1)

            let path = try server.mp4Path(try server.stopJob(job))
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")

            // The pictures: red alone (full frame), red and blue side by side, red's placeholder
            // beside blue.
            let redColour = YUVColor(red: 0xD0, green: 0x20, blue: 0x20), blueColour = YUVColor(red: 0x20, green: 0x40, blue: 0xD0)
            if let alone, let joined, let cameraOff {
                let first = try MediaSamples.frame(of: path, at: max(alone + 1.0, joined - 0.5), width: 1280, height: 720)
                #expect(first.pixel(x: 640, y: 250).distance(to: redColour) < 40, "alone: \(first.pixel(x: 640, y: 250))")
                let both = try MediaSamples.frame(of: path, at: cameraOff - 0.5, width: 1280, height: 720)
                #expect(both.pixel(x: 320, y: 250).distance(to: redColour) < 40, "red tile: \(both.pixel(x: 320, y: 250))")
                #expect(both.pixel(x: 960, y: 250).distance(to: blueColour) < 40, "blue tile: \(both.pixel(x: 960, y: 250))")
                let off = try MediaSamples.frame(of: path, at: cameraOff + 0.5, width: 1280, height: 720)
                #expect(off.pixel(x: 320, y: 250).distance(to: redColour) > 60, "the placeholder is still red: \(off.pixel(x: 320, y: 250))")
                #expect(off.pixel(x: 960, y: 250).distance(to: blueColour) < 40, "blue tile: \(off.pixel(x: 960, y: 250))")
            }
        }

        /// A participant whose network goes (aiortc killed, no goodbye) is shown as gone once
        /// the server's consent timeout (RFC 7675; 12 s here, 30 s by default) ends
        /// its connection, not frozen for ever. (aiortc checks consent every 5 s or so: a shorter
        /// timeout would end healthy connections too.)
        @Test func aParticipantWhoseNetworkDropsIsRemovedAfterTheConsentTimeout() throws {
            let server = try RoomServerHarness(consentTimeout: 12)
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            var peers: [Subprocess] = []
            defer {
                for peer in peers {
                    peer.signal(SIGKILL)
                    peer.wait()
                }
            }
            let log = try TemporaryDirectory(prefix: "whip")
            for (name, colour) in [("Stays", "2040D0"), ("Drops", "20D040")] {
                peers.append(try server.whipPublisher(room: room, name: name, colour: colour, log: log.file(name)))
            }
            let job = try server.startJob(.recording, room: room)
            let layouts = Layouts(server, job)
            defer { print("layouts:\n" + layouts.text) }
            let both = layouts.wait(30) { Set($0.map { $0.name }) == ["Stays", "Drops"] && $0.allSatisfy { $0.content == "camera" } }
            #expect(both != nil, "both publishers were never laid out")

            peers[1].signal(SIGKILL)
            let killed = Date()
            let gone = layouts.wait(30) { $0.map { $0.name } == ["Stays"] }
            let after = Date().timeIntervalSince(killed)
            #expect(gone != nil, "the dropped participant stayed in the layout")
            print("measured: a dropped participant left the layout \(String(format: "%.2f", after)) s after its network went (consent timeout 12 s)")
            #expect(after > 5 && after < 20, "removed \(after) s after the network went, for a 12 s consent timeout")
            try server.stopJob(job)
        }
    }
}
