import Foundation
import JobSpec
import Jobs
import Media
import Platform
import TestSupport
import Testing

/// Controls on a running recording (issue 26 items 1 and 2), through the REST API against a
/// live room: aiortc Blue (1000 Hz) and Red (440 Hz) are recorded in GRID; the layout changes to
/// SPOTLIGHT with the LIGHT theme (a capture shows it); the recording is paused, Green (600 Hz) joins and leaves while
/// it is, and it is resumed. The MP4 plays straight through, has nothing of Green, and is as long
/// as the time it was not paused; the layout changes on the frame the job's events say.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LiveRecordingControlsTests {
        static let blue = YUVColor(red: 0x20, green: 0x40, blue: 0xD0), red = YUVColor(red: 0xD0, green: 0x20, blue: 0x20)
        static let green = YUVColor(red: 0x20, green: 0xC0, blue: 0x40)

        @Test func aRecordingIsRelaidOutPausedAndResumedWhileItRuns() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            try server.startWebhooks()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let logs = try TemporaryDirectory(prefix: "controls")
            let blue = try server.whipPublisher(room: room, name: "Blue", colour: "2040D0", tone: 1000, log: logs.file("blue"))
            defer { server.end(blue) }
            let red = try server.whipPublisher(room: room, name: "Red", colour: "D02020", tone: 440, log: logs.file("red"))
            defer { server.end(red) }

            let webhooks = try WebhookReceiver()
            let job = try server.startJob(.recording, room: room, webhookURL: webhooks.url)
            defer { print("recorder log:\n" + server.attemptLog(job)) }
            // Both on screen, side by side (GRID).
            let bothShown = Poll.until(30) { (try? server.layouts(of: job).last?.tiles.count) == 2 }
            #expect(bothShown, "\(String(describing: try? server.layouts(of: job)))")
            var unpaused = Date()
            var recordedBefore = 0.0
            Thread.sleep(forTimeInterval: 3)

            // The layout: a field left out keeps its value; a field a running job cannot change is refused.
            let refused = try server.call("POST", "/v2/recordings/\(job.idText)/layout", .object(["quality": .string("high")]))
            #expect(refused.status == 400 && refused.json["code"]?.integerValue == 3073, "\(refused.json.text)")
            let badType = try server.call("POST", "/v2/recordings/\(job.idText)/layout", .object(["layout": .object(["type": .string("MOSAIC")])]))
            #expect(badType.status == 400 && badType.json["message"]?.stringValue?.contains("config.layout.type") == true, "\(badType.json.text)")
            let changed = try server.call("POST", "/v2/recordings/\(job.idText)/layout",
                                          .object(["layout": .object(["type": .string("SPOTLIGHT")]), "theme": .string("LIGHT")]))
            #expect(changed.status == 200, "\(changed.json.text)")
            #expect(changed.json["layout"]?["type"]?.stringValue == "SPOTLIGHT" && changed.json["theme"]?.stringValue == "LIGHT"
                && changed.json["layout"]?["gridSize"]?.integerValue == 4 && changed.json["mode"]?.stringValue == "video-and-audio", "\(changed.json.text)")
            var changedAt: Double?
            _ = Poll.until(20) {
                changedAt = (try? server.api.store.events(of: job.id))?.compactMap { $0.detail }.compactMap(Self.layoutChangeTime).first
                return changedAt != nil
            }
            #expect(changedAt != nil, "no layout change in the job's events")
            Thread.sleep(forTimeInterval: 3)
            // A capture of the recording shows the new layout: one camera in the middle, on LIGHT.
            let capture = try server.call("POST", "/v2/recordings/capture", .object(["roomId": .string(room), "width": .number(320), "format": .string("png")]))
            #expect(capture.status == 200 && capture.json["meta"]?["height"]?.integerValue == 180, "\(capture.json.text)")
            if let url = capture.json["fileUrl"]?.stringValue {
                let png = try TCP.http("GET", url).body
                let (r, g, b) = try PNGPixels.pixel(of: png, x: 160, y: 75), corner = try PNGPixels.pixel(of: png, x: 1, y: 1)
                let middle = Self.name(YUVColor(red: UInt8(clamping: r), green: UInt8(clamping: g), blue: UInt8(clamping: b)))
                #expect((middle == "red" || middle == "blue") && corner.0 > 200, "capture: middle \(middle), corner \(corner)")
            }

            // Paused: Green joins, is in the room for a while, and leaves.
            let paused = try server.call("POST", "/v2/recordings/pause", .object(["roomId": .string(room)]))
            #expect(paused.status == 200 && paused.json.stringValue == "Recording paused successfully", "\(paused.json.text)")
            recordedBefore = Date().timeIntervalSince(unpaused)
            #expect(Poll.until(20) { Self.notes(server, job).contains { $0.contains("paused at") } }, "\(Self.notes(server, job))")
            #expect(try server.call("GET", "/v2/recordings/\(job.idText)").json["paused"]?.boolValue == true)
            let pausedCapture = try server.call("POST", "/v2/recordings/capture", .object(["roomId": .string(room)]))
            #expect(pausedCapture.status == 409, "a paused recording has no picture to capture: \(pausedCapture.json.text)")
            let again = try server.call("POST", "/v2/recordings/pause", .object(["roomId": .string(room)]))
            #expect(again.status == 200, "pausing a paused recording changes nothing: \(again.json.text)")
            let green = try server.whipPublisher(room: room, name: "Green", colour: "20C040", tone: 600, log: logs.file("green"))
            let greenIn = Poll.until(30) { (try? String(contentsOfFile: logs.file("green"), encoding: .utf8))?.contains("connected") == true }
            #expect(greenIn, "Green did not publish: \((try? String(contentsOfFile: logs.file("green"), encoding: .utf8)) ?? "")")
            // Paused time is not counted: the recorded seconds /metrics reports stand still.
            let recorded = { () -> String in
                let text = String(decoding: (try? TCP.http("GET", server.base + "/metrics").body) ?? [], as: UTF8.self)
                return text.split(separator: "\n").first { $0.hasPrefix("revue_recorded_seconds ") }
                    .map(String.init) ?? "none"
            }
            // A worker writes a job's progress with its heartbeat (every 3 s): the first after the
            // pause carries the pictures the encoder still held from before it (a CI run read the
            // seconds before it, then after).
            Thread.sleep(forTimeInterval: 3.5)
            let pausedMetrics = String(decoding: (try? TCP.http("GET", server.base + "/metrics").body) ?? [], as: UTF8.self)
            #expect(pausedMetrics.contains("revue_jobs_paused 1"), "\(pausedMetrics)")
            let early = recorded()
            Thread.sleep(forTimeInterval: 2)
            #expect(recorded() == early && early != "none", "recorded seconds while paused: \(early), then \(recorded())")
            server.end(green)
            Thread.sleep(forTimeInterval: 2)
            let resumed = try server.call("POST", "/v2/recordings/resume", .object(["roomId": .string(room)]))
            #expect(resumed.status == 200 && resumed.json.stringValue == "Recording resumed successfully", "\(resumed.json.text)")
            unpaused = Date()
            #expect(Poll.until(20) { Self.notes(server, job).contains { $0.contains("resumed at") } }, "\(Self.notes(server, job))")
            #expect(try server.call("GET", "/v2/recordings/\(job.idText)").json["paused"]?.boolValue == false)
            Thread.sleep(forTimeInterval: 4)
            let finished = try server.stopJob(job)
            let recordedAfter = Date().timeIntervalSince(unpaused)
            // The backend heard when the pause took effect, and when it ended.
            var types: [String] = []
            _ = Poll.until(20) {
                types = webhooks.deliveries.compactMap(\.type)
                return types.contains("recording-paused") && types.contains("recording-resumed")
            }
            #expect(types.contains("recording-paused") && types.contains("recording-resumed"), "\(types)")
            #expect(types.firstIndex(of: "recording-paused") ?? 99 < types.firstIndex(of: "recording-resumed") ?? 0, "\(types)")
            let noJob = try server.call("POST", "/v2/recordings/resume", .object(["roomId": .string(room)]))
            #expect(noJob.status == 409 && noJob.json["error"]?.stringValue == "JOB_NOT_RUNNING", "\(noJob.json.text)")

            // One file that plays straight through, as long as the time it was not paused.
            let path = try server.mp4Path(finished)
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            let probe = try MediaProbe.probe(path)
            let duration = try #require(probe.format.durationSeconds)
            let streams = probe.streams.compactMap(\.durationSeconds)
            print("measured: paused recording \(String(format: "%.2f", duration)) s for \(String(format: "%.2f", recordedBefore + recordedAfter)) s "
                + "unpaused; streams \(streams.map { String(format: "%.3f", $0) }); notes \(Self.notes(server, job))")
            #expect(abs(duration - (recordedBefore + recordedAfter)) < 1.5, "\(duration) s for \(recordedBefore + recordedAfter) s unpaused")
            #expect(streams.count == 2 && abs(streams[0] - streams[1]) < 0.1, "audio and video end together: \(streams)")

            // Nothing of Green: no picture, no tone, not on screen in the job's events.
            let frames = try MediaSamples.frames(of: path, perSecond: 5, width: 160, height: 90)
            let greenFrames = frames.filter { frame in
                stride(from: 4, to: 90, by: 8).contains { y in stride(from: 4, to: 160, by: 8).contains { x in frame.pixel(x: x, y: y).distance(to: Self.green) < 40 } }
            }
            #expect(frames.count > 20 && greenFrames.isEmpty, "green at \(greenFrames.map(\.mediaTime)) of \(frames.count) frames")
            let sound = try MediaSamples.monoAudio(of: path)
            #expect(Goertzel.prominence(of: sound[...], frequency: 600) < 3, "Green's tone is in the recording")
            #expect(Goertzel.prominence(of: sound[...], frequency: 1000) > 10 && Goertzel.prominence(of: sound[...], frequency: 440) > 10)
            #expect(try server.layouts(of: job).allSatisfy { layout in !layout.tiles.contains { $0.name == "Green" } })

            // GRID just before the change, SPOTLIGHT on LIGHT from the frame after it.
            if let changedAt {
                let before = try MediaSamples.frame(of: path, at: changedAt - 0.2, width: 1280, height: 720)
                let after = try MediaSamples.frame(of: path, at: changedAt + 0.1, width: 1280, height: 720)
                let sides = [before.pixel(x: 320, y: 250), before.pixel(x: 960, y: 250)].map(Self.name)
                #expect(Set(sides) == ["red", "blue"], "GRID before the change: \(sides)")
                let centre = Self.name(after.pixel(x: 640, y: 300))
                #expect(centre == "red" || centre == "blue", "SPOTLIGHT after the change shows one camera in the middle: \(centre)")
                #expect(before.pixel(x: 4, y: 4).y < 60 && after.pixel(x: 4, y: 4).y > 200,
                        "the background from the DEFAULT theme to LIGHT: \(before.pixel(x: 4, y: 4)) then \(after.pixel(x: 4, y: 4))")
            }
        }

        static func notes(_ server: RoomServerHarness, _ job: Job) -> [String] {
            ((try? server.api.store.events(of: job.id)) ?? []).compactMap(\.detail)
        }

        /// `attempt 1: layout SPOTLIGHT (SPEAKER, gridSize 4), theme LIGHT from 5.23 s`: 5.23.
        static func layoutChangeTime(_ note: String) -> Double? {
            guard note.contains(": layout "), let from = note.range(of: " from ", options: .backwards) else { return nil }
            return Double(note[from.upperBound...].replacingOccurrences(of: " s", with: ""))
        }

        static func name(_ colour: YUVColor) -> String {
            colour.distance(to: red) < 40 ? "red" : colour.distance(to: blue) < 40 ? "blue" : colour.distance(to: green) < 40 ? "green" : "\(colour)"
        }
    }
}
