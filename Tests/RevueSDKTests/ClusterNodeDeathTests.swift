import Cluster
import Foundation
import Jobs
import JobSpec
import Platform
import Postgres
@testable import RevueSDK
import TestSupport
import Testing

/// Three nodes, each in a network namespace of its own on a bridge (`ClusterNetwork`), and a room
/// placed on node 2 (docs/CLUSTER.md, "A node dies"): an SDK participant comes in through node 1,
/// Chromium's join page and an aiortc WHIP publisher through node 3, and a recording started with
/// REST on node 1 is run by the worker on node 3 (its view, from any node, says so and names node
/// 2). Node 2 is killed with SIGKILL mid-recording:
/// the SDK participant and the page are back in the room on a live node within 15 s, the
/// recording never leaves STARTED and carries on (one part, a gap of silence where the room was
/// away), and nothing in PostgreSQL still points at node 2.
extension RevueSDKTests {
    @MainActor @Suite(.browser, .timeLimit(.minutes(10)), .oneRoomAtATime) struct ClusterNodeDeathTests {
        @Test func aNodeKilledMidRecordingLosesNeitherItsRoomNorTheRecording() async throws {
            let (nodes, local) = try await RevueSDKTests.offMain {
                try ClusterNetwork.shared().startNodes(3, arguments: { $0 == 3 ? ["--worker-id", "worker-3"] : [] }, worker: { $0 == 3 })
            }
            defer { for node in nodes { print("\(node.host) log (end):\n" + node.log.suffix(3000)) } }
            let pool = PostgresPool(local, size: 2)
            let store = NodeStore(pool: pool)
            let jobs = JobStore(pool: pool)
            #expect(await RevueSDKTests.waitUntil(15) { ((try? store.nodes()) ?? []).filter(\.alive).count == 3 })
            // Two other rooms are placed first, one on node 1 and one on node 3: the room goes to
            // node 2, the least loaded, whichever door it comes through.
            _ = try RoomPlacer(store: store, nodeID: "node-1").place(try nodes[0].makeRoom())
            _ = try RoomPlacer(store: store, nodeID: "node-3").place(try nodes[0].makeRoom())
            let roomID = try nodes[0].makeRoom()

            // Ann (the SDK: a test pattern and a 440 Hz tone) through node 1.
            let ann = try VideoSDK.createRoom(roomId: roomID, token: try nodes[0].token(), participantName: "Ann", micEnabled: true, camEnabled: true,
                                              customCameraTrack: try await ReconnectTests.smallCamera(), signalingURL: nodes[0].signalingURL)
            let log = EventLog()
            ann.addEventListener(log)
            try await ann.join()
            #expect(await log.wait(for: "streamEnabled local VIDEO"), "\(log.events)")
            guard case .elsewhere(let home)? = try RoomPlacer(store: store, nodeID: "node-1").location(of: roomID) else {
                Issue.record("the room is not on another node than node 1")
                return
            }
            #expect(home.id == "node-2")
            // Chromium (green, 660 Hz) and aiortc (blue, 1000 Hz) through node 3.
            let media = try TemporaryDirectory(prefix: "node-death")
            let green = try FakeMedia(colour: "0x20B040", tone: 660, in: media, name: "green")
            // The nodes' pages may use the camera: a secure context, as HTTPS would make them.
            let origins = nodes.map(\.base).joined(separator: ",")
            let chromium = try HeadlessChromium(arguments: HeadlessChromium.webRTCArguments(video: green.video, audio: green.audio)
                + ["--unsafely-treat-insecure-origin-as-secure=\(origins)"])
            let page = try chromium.open(nodes[2].joinURL(room: roomID, token: try nodes[2].token(), name: "Chrome"))
            let whip = try nodes[2].whipPublisher(room: roomID, name: "aiortc Blue", colour: "2040D0", tone: 1000, log: media.file("whip.log"))
            defer {
                whip.signal(SIGKILL)
                whip.wait()
            }
            // Everyone sees and hears everyone: Ann both others' cameras and tones, the page Ann's and aiortc's.
            let together = await RevueSDKTests.waitUntil(40) {
                ReconnectTests.decoded(ann, of: "Chrome") > 10 && ReconnectTests.decoded(ann, of: "aiortc Blue") > 10
                    && Self.heard(ann, of: "Chrome") > 48_000 && Self.heard(ann, of: "aiortc Blue") > 48_000
                    && Self.videosDecoding(page) >= 2 && Self.audiosPlaying(page) >= 2
            }
            #expect(together, "Ann: \(log.events); the page: \(Self.pageState(page)); aiortc: \((try? String(contentsOfFile: media.file("whip.log"), encoding: .utf8)) ?? "")")

            // A recording through node 1's REST API, run by node 3's worker.
            let started = try nodes[0].call("POST", "/v2/recordings/start", body: Array(#"{"roomId":"\#(roomID)","config":{"quality":"low"}}"#.utf8))
            #expect(started.status == 200, "\(String(describing: started.json))")
            var recording: Job?
            #expect(await RevueSDKTests.waitUntil(40) {
                recording = try? jobs.activeJob(kind: .recording, roomID: roomID)
                return recording?.state == .started
            })
            let job = try #require(recording)
            #expect(job.workerID == "worker-3", "\(job)")
            // Its view, from any node, names the worker and the room's node.
            let view = try nodes[0].call("GET", "/v2/recordings/\(job.idText)")
            print("node death: the recording's view on node 1: workerId \(view.json?["workerId"]?.stringValue ?? "none"), nodeId \(view.json?["nodeId"]?.stringValue ?? "none")")
            #expect(view.json?["workerId"]?.stringValue == "worker-3" && view.json?["nodeId"]?.stringValue == "node-2", "\(String(describing: view.json))")
            defer { print("recorder log:\n" + ((try? String(contentsOfFile: nodes[2].root.file("storage") + "/jobs/\(job.idText)/attempt-1.log", encoding: .utf8)) ?? "none").suffix(4000)) }
            // A few seconds of everyone on the recording.
            try await Task.sleep(for: .seconds(5))

            // Node 2 dies.
            nodes[1].process.signal(SIGKILL)
            let killed = Date()
            var annBack: Double?, pageBack: Double?
            var states: Set<String> = []
            _ = await RevueSDKTests.waitUntil(45) {
                let now = Date().timeIntervalSince(killed)
                if let state = try? jobs.job(job.id)?.state { states.insert(state.rawValue) }
                if annBack == nil, log.events.contains("state RECONNECTING"), log.events.last(where: { $0.hasPrefix("state ") }) == "state CONNECTED" {
                    annBack = now
                }
                if pageBack == nil, Self.pageState(page) == "CONNECTED 1" { pageBack = now }
                return annBack != nil && pageBack != nil && now > 20
            }
            print("node death: node 2 killed; Ann (SDK, door node 1) back in \(annBack.map { String(format: "%.1f s", $0) } ?? "never"), "
                + "Chromium (page from node 2) back in \(pageBack.map { String(format: "%.1f s", $0) } ?? "never"); recording states meanwhile: \(states.sorted())")
            #expect(annBack.map { $0 <= 15 } == true, "\(log.events)")
            #expect(pageBack.map { $0 <= 15 } == true, "\(Self.pageState(page))")
            #expect(states == ["STARTED"], "\(states)")
            let now = try #require(try RoomPlacer(store: store, nodeID: "node-1").location(of: roomID), "the room is nowhere")
            let newHome = { if case .elsewhere(let node) = now { return node.id } else { return "node-1" } }()
            #expect(newHome != "node-2")
            // They see each other again on the new node.
            let seeing = await RevueSDKTests.waitUntil(20) { ReconnectTests.decoded(ann, of: "Chrome") > 10 && Self.videosDecoding(page) >= 1 }
            #expect(seeing, "Ann: \(log.events); the page: \(Self.pageState(page))")

            // Nothing points at node 2: its placements are gone, its sessions ended, its row dead.
            let left = try PostgresConnection(local)
            let placements = try left.query("SELECT count(*) AS n FROM room_placements WHERE node_id = 'node-2'").first?.decode("n", as: Int.self)
            let sessions = try left.query("SELECT count(*) AS n FROM sessions WHERE node_id = 'node-2' AND ended_at IS NULL").first?.decode("n", as: Int.self)
            let row = try store.node("node-2")
            print("node death: the room now on \(newHome); node 2's placements \(placements ?? -1), live sessions \(sessions ?? -1), row alive \(row?.alive ?? false)")
            #expect(placements == 0 && sessions == 0 && row?.alive != true)

            // The recording stops through node 1 and is whole but for the gap.
            let stop = try nodes[0].call("POST", "/v2/recordings/stop", body: Array(#"{"roomId":"\#(roomID)"}"#.utf8))
            #expect(stop.status == 200, "\(String(describing: stop.json))")
            var finished: Job?
            #expect(await RevueSDKTests.waitUntil(60) {
                finished = try? jobs.job(job.id)
                return finished?.state == .stopped
            }, "\(String(describing: finished))")
            let done = try #require(finished)
            let parts = done.parts.filter { $0.kind == .mp4 }
            #expect(parts.count == 1 && done.attempts == 1, "\(done.parts)")
            let path = nodes[2].root.file("storage") + "/" + (parts.first?.path ?? "")
            let duration = try MediaProbe.probe(path).format.durationSeconds ?? 0
            let samples = try MediaSamples.monoAudio(of: path)
            let (gapStart, gap) = Self.longestSilence(samples)
            let before = samples[min(samples.count, 48_000)..<min(samples.count, Int(max(1.5, gapStart - 0.5) * 48_000))]
            let after = samples[min(samples.count, Int((gapStart + gap + 2) * 48_000))..<samples.count]
            func tones(_ slice: ArraySlice<Float>) -> String {
                [440.0, 660, 1000].map { "\(Int($0)) Hz \(String(format: "%.0f", Goertzel.prominence(of: slice, frequency: $0)))" }.joined(separator: ", ")
            }
            print("node death: recording \(String(format: "%.1f", duration)) s in one part; silent from \(String(format: "%.1f", gapStart)) s for "
                + "\(String(format: "%.1f", gap)) s; before: \(tones(before)); after: \(tones(after))")
            #expect(gap > 0 && gap <= 15, "a gap of \(gap) s")
            #expect(duration > gapStart + gap + 5, "\(duration) s")
            // Everyone's tone before; Ann's and Chromium's after (a WHIP publisher cannot be told
            // where its room went: it must publish again).
            #expect([440.0, 660, 1000].allSatisfy { Goertzel.prominence(of: before, frequency: $0) > 10 }, "\(tones(before))")
            #expect([440.0, 660].allSatisfy { Goertzel.prominence(of: after, frequency: $0) > 10 }, "\(tones(after))")
            // The tiles: all three before, Ann and Chrome after.
            let layouts = try jobs.events(of: job.id).compactMap { $0.detail.flatMap(LayoutNote.parse) }.map { Set($0.tiles.map(\.name)) }
            #expect(layouts.contains(["Ann", "Chrome", "aiortc Blue"]), "\(layouts)")
            #expect(layouts.last.map { $0.isSuperset(of: ["Ann", "Chrome"]) } == true, "\(layouts)")
            try await ann.leave()
        }

        /// Samples of `who`'s microphone `room` has decoded (the stream of now).
        static func heard(_ room: RevueSDK.Room, of who: String) -> Int {
            room.participants.values.first { $0.displayName == who }?.stream(of: .AUDIO)?.remoteAudioTrack?.statistics.samplesDecoded ?? 0
        }

        /// How many remote microphones the page receives sound from.
        static func audiosPlaying(_ page: HeadlessChromium.Page) -> Int {
            let stats = ((try? page.evaluate("window.revue ? window.revue.stats() : null")) as? [String: Any]) ?? [:]
            return ((stats["inbound"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "audio" && ($0["totalSamplesReceived"] as? Int ?? 0) > 48_000 }.count
        }

        /// The page's state and how often it came back ("CONNECTED 1").
        static func pageState(_ page: HeadlessChromium.Page) -> String {
            ((try? page.evaluate("window.revue ? window.revue.state + ' ' + (window.revue.reconnections || 0) : 'none'")) as? String) ?? "unreadable"
        }

        /// How many remote videos the page decodes.
        static func videosDecoding(_ page: HeadlessChromium.Page) -> Int {
            let stats = ((try? page.evaluate("window.revue ? window.revue.stats() : null")) as? [String: Any]) ?? [:]
            return ((stats["inbound"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "video" && ($0["framesDecoded"] as? Int ?? 0) > 10 }.count
        }

        /// The longest run of 100 ms windows without sound, after the first sound: where it
        /// starts and how long it lasts, in seconds.
        static func longestSilence(_ samples: [Float]) -> (start: Double, seconds: Double) {
            let window = 4_800
            let loud = stride(from: 0, to: samples.count - window, by: window).map { start in
                samples[start..<start + window].reduce(0) { $0 + $1 * $1 } / Float(window) > 1e-5
            }
            guard let first = loud.firstIndex(of: true) else { return (0, 0) }
            var best = (start: 0, length: 0), run = (start: 0, length: 0)
            for index in first..<loud.count {
                if loud[index] { run = (index + 1, 0) } else { run.length += 1 }
                if run.length > best.length { best = run }
            }
            return (Double(best.start) / 10, Double(best.length) / 10)
        }
    }
}
