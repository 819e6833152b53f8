import Foundation
import JobSpec
import Jobs
import Media
import Platform
import TestSupport
import Testing

/// `revue capture` turns a live room into a fixture, and `revue record` replays it with the
/// tiles and names the live recording had. Two aiortc WHIP publishers (red 440 Hz, blue
/// 1000 Hz) are recorded through POST /v2/recordings/start while the `revue` binary captures
/// the same room; the replay of the capture is then held against the recording.
extension RoomClientLiveSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct CaptureReplayTests {
        static let red = YUVColor(red: 0xD0, green: 0x20, blue: 0x20), blue = YUVColor(red: 0x20, green: 0x40, blue: 0xD0)

        /// What each of a picture's two grid tiles (854×480, quality low, side by side) shows.
        static func tileColours(of path: String, at time: Double) throws -> [String] {
            let picture = try MediaSamples.frame(of: path, at: time, width: 854, height: 480)
            return [picture.pixel(x: 213, y: 170), picture.pixel(x: 640, y: 170)].map { pixel in
                pixel.distance(to: red) < 40 ? "red" : (pixel.distance(to: blue) < 40 ? "blue" : "\(pixel)")
            }
        }

        @Test func aCapturedRoomReplaysWithTheLiveRecordingsTilesAndNames() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let work = try TemporaryDirectory(prefix: "capture-replay")
            let peers = [try server.whipPublisher(room: room, name: "aiortc Red", colour: "D02020", tone: 440, log: work.file("red.log")),
                         try server.whipPublisher(room: room, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: work.file("blue.log"))]
            defer {
                for peer in peers { server.end(peer) }
            }
            let peerLogs = { ["red.log", "blue.log"].map { (try? String(contentsOfFile: work.file($0), encoding: .utf8)) ?? "" }.joined(separator: "\n") }
            // Both are in the room and their media connections are up, so media flows from the start.
            let publishing = Poll.until(30) {
                server.rooms.activeParticipants(roomID: room)?.count == 2
                    && ["red.log", "blue.log"].allSatisfy { log in
                        ((try? String(contentsOfFile: work.file(log), encoding: .utf8)) ?? "").contains("\"state\": \"connected\"")
                    }
            }
            #expect(publishing, "the publishers did not join: \(peerLogs())")

            // The live recording, as a backend starts it.
            // Quality low: the live recorder, two aiortc encoders and the capture share two cores.
            let job = try server.startJob(.recording, room: room, config: ["quality": .string("low")])
            defer { print("recorder log:\n" + server.attemptLog(job)) }

            // The capture of the same room, as an operator runs it, with a hidden recorder's token.
            let fixture = work.file("fixture")
            let token = try server.auth.token(roles: [.rtc], permissions: [.allowJoin], roomID: room, participantID: "capture-test",
                                              expiresIn: 3600, recorder: true)
            let capture = try Subprocess(RevueBinary.path, ["capture", room, "--out", fixture, "--server", server.base, "--token", token,
                                                            "--seconds", "8"],
                                         standardOutput: .file(work.file("capture.out")), standardError: .file(work.file("capture.log")))
            let captured = capture.wait(timeout: 60)
            if captured == nil { capture.signal(SIGKILL) }
            let captureLog = { ["capture.out", "capture.log"].map { (try? String(contentsOfFile: work.file($0), encoding: .utf8)) ?? "" }.joined() }
            print("capture:\n" + captureLog())
            #expect(captured == .exited(0), "capture \(String(describing: captured)): \(captureLog())")

            let live = try server.mp4Path(try server.stopJob(job))

            // The manifest has the names the publishers joined with, and both their tracks.
            let manifest = try JSONValue(parsing: Array(try #require(FileManager.default.contents(atPath: fixture + "/manifest.json"))))
            let described = manifest["participants"]?.arrayValue ?? []
            #expect(Set(described.compactMap { $0["name"]?.stringValue }) == ["aiortc Red", "aiortc Blue"], "\(manifest.text)")
            #expect(described.allSatisfy { Set(($0["tracks"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }) == ["video", "audio"] },
                    "\(manifest.text)")

            // The replay, as anyone runs it.
            let replay = work.file("replay.mp4")
            let recorded = try Tool.run(RevueBinary.path, ["record", "--fixture", fixture, "--output", replay, "--quality", "low",
                                                           "--events", work.file("replay.events")])
            #expect(recorded.status == 0, "revue record: \(recorded.standardError)")
            #expect(try Tool.decodeFully(replay).standardError.isEmpty)

            // The same tiles, in the same places, with the same names.
            let liveLayout = try #require(try server.layouts(of: job).last?.tiles.map { "\($0.name)/\($0.content)" })
            let replayLayout = try #require(JobRunEventsFile(path: work.file("replay.events")).readNew().compactMap(\.tiles).last?
                .map { "\($0.name)/\($0.content)" })
            #expect(Set(liveLayout) == ["aiortc Red/camera", "aiortc Blue/camera"], "\(liveLayout)")
            #expect(replayLayout == liveLayout, "replay \(replayLayout), live \(liveLayout)")
            let liveDuration = try #require(try MediaProbe.probe(live).format.durationSeconds)
            let replayDuration = try #require(try MediaProbe.probe(replay).format.durationSeconds)
            print("measured: live \(String(format: "%.2f", liveDuration)) s, replay of the capture \(String(format: "%.2f", replayDuration)) s")
            #expect(replayDuration > 6, "the capture ran 8 s; the replay lasts \(replayDuration) s")
            let liveTiles = try Self.tileColours(of: live, at: liveDuration - 2)
            let replayTiles = try Self.tileColours(of: replay, at: replayDuration - 2)
            print("measured: live tiles \(liveTiles), replay tiles \(replayTiles)")
            // Tiles with no picture here are the live recording's own trouble, not the capture's: its
            // log (printed above) says whether its media connection came up, its encode lag whether it kept up.
            let lag = try server.api.store.job(job.id)?.progress?.encodeLag
            #expect(Set(liveTiles) == ["red", "blue"], "live tiles are \(liveTiles); the recorder's encode lag \(lag.map { "\($0) s" } ?? "unknown")")
            #expect(replayTiles == liveTiles, "replay tiles are \(replayTiles), live \(liveTiles)")
            // The red tile is the one named for it, in both.
            let redIndex = try #require(liveTiles.firstIndex(of: "red"))
            #expect(liveLayout.indices.contains(redIndex) && liveLayout[redIndex] == "aiortc Red/camera", "\(liveLayout)")
        }
    }
}
