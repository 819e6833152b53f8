import Foundation
import JobSpec
import Jobs
import Media
import Capture
import Publisher
import TestSupport
import Testing

/// One composite for many jobs (issue 26 item 7), through the REST API, a worker, a live room and
/// nginx-rtmp: a recording, an HLS stream and a livestream (to nginx and to a server that is not
/// there) of one room run in one child process. Each keeps its own state, outputs, pause and
/// stop: the dead destination fails alone, the recording pauses while the others go on, the
/// livestream stops first and the rest go on, the stream changes its layout and the recording
/// keeps its own, and every file plays from 0 to its own end.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct SharedCompositeTests {
        @Test func aRecordingAnHLSStreamAndALivestreamShareOneComposite() throws {
            let nginx = try NginxRTMP()
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let camera = { (name: String, rgb: UInt32, tone: Double) in
                try RoomPublisher(configuration: RoomPublisher.Configuration(
                    signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room, token: try server.token(), participantName: name,
                    camera: try TestPatternCamera(name: name, rgb: rgb), microphone: ToneMicrophone(frequency: tone)))
            }
            let blue = try camera("Blue", 0x2040D0, 1000)
            defer { blue.leave() }
            let red = try camera("Red", 0xD02020, 440)
            defer { red.leave() }
            #expect(blue.waitUntilPublishing(timeout: 20) && red.waitUntilPublishing(timeout: 20), "\(blue.failure ?? "") \(red.failure ?? "")")

            let recording = try server.startJob(.recording, room: room)
            let started = Date()
            let hls = try server.startJob(.hls, room: room, until: .playable)
            let hlsStarted = Date()
            let rtmp = "rtmp://127.0.0.1:\(nginx.port)/live"
            let live = try server.call("POST", "/v2/livestreams/start", .object([
                "roomId": .string(room),
                "outputs": .array([.object(["url": .string(rtmp), "streamKey": .string("shared")]),
                                   .object(["url": .string("rtmp://127.0.0.1:9/live"), "streamKey": .string("nobody")])]),
            ]))
            #expect(live.status == 200, "\(live.json.text)")
            var livestream: Job?
            #expect(Poll.until(40) {
                livestream = try? server.api.store.activeJob(kind: .livestream, roomID: room)
                return livestream?.state == .started
            }, "\(String(describing: livestream))")
            let streaming = try #require(livestream)

            // One child records the room for all three; the others joined it.
            let children = Self.children(of: [recording, hls, streaming])
            #expect(children.count == 1 && children.first?.contains(recording.idText) == true, "\(children)")
            for joined in [hls, streaming] {
                #expect(server.attemptLog(joined).contains("runs in the run of job \(recording.idText)"), "\(server.attemptLog(joined))")
            }
            let file = { (key: String) in nginx.recordedFiles().first { $0.contains("/\(key)") } }
            let size = { (path: String?) in path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0 }
            #expect(Poll.until(30) { size(file("shared")) > 50_000 }, "\(nginx.recordedFiles())")
            // The destination nobody answers fails on its own once its reconnects give up (about
            // 35 s): the livestream's note says so, and everything else goes on.
            #expect(Poll.until(60) { Self.notes(server, streaming).contains { $0.contains("failed") && $0.contains("127.0.0.1:9") } },
                    "\(Self.notes(server, streaming))")

            // The recording pauses; the stream and the livestream go on.
            Thread.sleep(forTimeInterval: 2)
            let paused = try server.call("POST", "/v2/recordings/pause", .object(["roomId": .string(room)]))
            #expect(paused.status == 200, "\(paused.json.text)")
            let pausedAt = Date()
            #expect(Poll.until(20) { Self.notes(server, recording).contains { $0.contains("paused at") } }, "\(Self.notes(server, recording))")
            // Progress reaches the job table with the worker's heartbeat (every 3 s), so wait for it.
            let mediaTime = { (job: Job) in (try? server.api.store.job(job.id))?.progress?.mediaTime ?? 0 }
            let hlsBefore = mediaTime(hls)
            #expect(Poll.until(15) { mediaTime(hls) > hlsBefore + 1.5 },
                    "the stream went on while the recording was paused: \(hlsBefore) then \(mediaTime(hls))")
            #expect(try server.call("POST", "/v2/recordings/resume", .object(["roomId": .string(room)])).status == 200)
            let pausedFor = Date().timeIntervalSince(pausedAt)
            #expect(Poll.until(20) { Self.notes(server, recording).contains { $0.contains("resumed at") } }, "\(Self.notes(server, recording))")
            Thread.sleep(forTimeInterval: 2)

            // The livestream stops first: it alone ends; the others go on in the same child.
            let liveStopped = try server.stopJob(streaming)
            #expect(liveStopped.state == .stopped && liveStopped.errorCode == nil, "\(liveStopped)")
            let recordingBefore = mediaTime(recording)
            #expect(Poll.until(15) { mediaTime(recording) > recordingBefore + 1 },
                    "the recording went on after the livestream stopped: \(recordingBefore) then \(mediaTime(recording))")
            let stillRunning = try [recording, hls].map { try server.api.store.job($0.id) }
            #expect(stillRunning.allSatisfy { $0?.state == .started || $0?.state == .playable }, "\(stillRunning.map { $0?.state })")
            #expect(Self.children(of: [recording, hls, streaming]).count == 1)

            // The stream takes a layout of its own (a composite of its own on the same decoders);
            // the recording stays as it was.
            let relaid = try server.call("POST", "/v2/hls/\(hls.idText)/layout",
                                         .object(["layout": .object(["type": .string("SPOTLIGHT")]), "theme": .string("LIGHT")]))
            #expect(relaid.status == 200, "\(relaid.json.text)")
            #expect(Poll.until(20) { Self.notes(server, hls).contains { $0.contains("layout SPOTLIGHT") } }, "\(Self.notes(server, hls))")
            Thread.sleep(forTimeInterval: 3)
            #expect(!Self.notes(server, recording).contains { $0.contains("layout SPOTLIGHT") }, "\(Self.notes(server, recording))")
            #expect(Self.children(of: [recording, hls, streaming]).count == 1)
            #expect(server.attemptLog(recording).contains("a composite of its own for another layout"))
            let hlsFinished = try server.stopJob(hls)
            let hlsSpan = Date().timeIntervalSince(hlsStarted)
            let recordingFinished = try server.stopJob(recording)
            let recordingSpan = Date().timeIntervalSince(started) - pausedFor
            #expect(Self.children(of: [recording, hls, streaming]).isEmpty)

            // Each file from 0 to its own end: the recording less its pause, the stream from when it joined.
            let mp4 = try server.mp4Path(recordingFinished)
            let decode = try Tool.decodeFully(mp4)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            let recorded = try MediaProbe.probe(mp4).format.durationSeconds ?? 0
            let part = try #require(hlsFinished.parts.first { $0.kind == .hls })
            let playlist = try String(contentsOfFile: server.storage.path + "/" + part.path + "/index.m3u8", encoding: .utf8)
            #expect(playlist.contains("#EXT-X-ENDLIST"))
            let streamed = try MediaProbe.probe(server.storage.path + "/" + part.path + "/index.m3u8").format.durationSeconds ?? 0
            let pushed = try #require(file("shared"))
            let pushedDecode = try Tool.decodeFully(pushed)
            #expect(pushedDecode.status == 0 && pushedDecode.standardError.isEmpty, "\(pushedDecode.standardError)")
            print("measured: one child for three jobs; recording \(String(format: "%.2f", recorded)) s for \(String(format: "%.2f", recordingSpan)) s "
                + "unpaused, HLS \(String(format: "%.2f", streamed)) s for \(String(format: "%.2f", hlsSpan)) s, livestream \(size(pushed)) bytes")
            #expect(abs(recorded - recordingSpan) < 2, "\(recorded) s recorded for \(recordingSpan) s unpaused")
            #expect(abs(streamed - hlsSpan) < 3, "\(streamed) s streamed for \(hlsSpan) s")
            // Each ends in its own layout: the recording GRID on the dark theme, the stream on LIGHT.
            let lastPicture = { (path: String) in try MediaSamples.frames(of: path, perSecond: 1, width: 1280, height: 720).last?.pixel(x: 2, y: 2) }
            let recordingEnd = try #require(try lastPicture(mp4))
            let streamEnd = try #require(try lastPicture(server.storage.path + "/" + part.path + "/index.m3u8"))
            #expect(recordingEnd.y < 60 && streamEnd.y > 180, "backgrounds: recording \(recordingEnd), stream \(streamEnd)")
            // Both cameras and both tones in the recording: the composite is the room's.
            let sound = try MediaSamples.monoAudio(of: mp4)
            #expect(Goertzel.prominence(of: sound[...], frequency: 1000) > 10 && Goertzel.prominence(of: sound[...], frequency: 440) > 10)
        }

        /// The `revue record` children running any of `jobs` (their spec files name the job they were started for).
        static func children(of jobs: [Job]) -> [String] {
            let listing = (try? Tool.run("ps", ["-e", "-o", "args="]).standardOutput) ?? ""
            return listing.split(separator: "\n").map(String.init).filter { line in
                line.contains("record --spec") && jobs.contains { line.contains($0.idText) }
            }
        }

        static func notes(_ server: RoomServerHarness, _ job: Job) -> [String] {
            ((try? server.api.store.events(of: job.id)) ?? []).compactMap(\.detail)
        }
    }
}
