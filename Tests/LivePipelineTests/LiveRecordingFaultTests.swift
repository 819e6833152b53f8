import Foundation
import JobSpec
import Jobs
import Net
import Platform
import TestSupport
import Testing

/// What a live recording must survive. The worker's media link to the room server goes down
/// for 5 s (a UDP proxy in front of the server drops everything to and from the recorder): the
/// job stays STARTED, the output's timeline has no hole, and live pictures are back within 2 s
/// of the link. An aiortc publisher alternates blue and yellow every 0.5 s, so a frozen
/// picture shows as a run of frames that do not change.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LiveRecordingFaultTests {
        static let blue = "2040D0", yellow = "E0D020"

        /// The longest stretch, in seconds, over which the picture's mean luma did not change.
        static func longestFreeze(_ frames: [(time: Double, luma: Double)]) -> (seconds: Double, endsAt: Double) {
            var longest = (seconds: 0.0, endsAt: 0.0)
            var start = frames.first?.time ?? 0
            for (previous, frame) in zip(frames, frames.dropFirst()) {
                if abs(frame.luma - previous.luma) > 8 { start = frame.time }
                if frame.time - start > longest.seconds { longest = (frame.time - start, frame.time) }
            }
            return longest
        }

        /// The largest step between consecutive packet times: a hole in the timeline.
        static func largestStep(_ times: [Double]) -> Double {
            let sorted = times.sorted()
            return zip(sorted, sorted.dropFirst()).map { $1 - $0 }.max() ?? 0
        }

        @Test func aFiveSecondMediaBlipDoesNotFailTheJobNorLeaveAHole() throws {
            try recordThroughABlip(alsoSignalling: false)
        }

        /// The same, and the blip also kills the worker's signalling connection (a TCP proxy in
        /// front of the server drops it and refuses new ones for 5 s): the recorder rejoins.
        @Test func aBlipThatDropsTheSignallingConnectionIsRejoined() throws {
            try recordThroughABlip(alsoSignalling: true)
        }

        func recordThroughABlip(alsoSignalling: Bool) throws {
            let proxy = try LossyUDPProxy(dropPercent: 0, reorderPercent: 0, seed: 1)
            let server = try RoomServerHarness(announcePort: proxy.port)
            proxy.forward(toPort: server.rtcPort)
            proxy.start()
            defer { proxy.stop() }
            let signalling = try TCPProxy(upstreamPort: server.port)
            server.startWorker(signalingPort: signalling.port)
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let log = try TemporaryDirectory(prefix: "whip")
            let whip = try server.whipPublisher(room: room, name: "Blink", colour: Self.blue, tone: 1000, extra: ["--alternate", Self.yellow],
                                                log: log.file("out"))
            defer { server.end(whip) }
            let publishing = Poll.until(30) { proxy.clientAddresses.count == 1 && server.rooms.activeParticipants(roomID: room)?.count == 1 }
            #expect(publishing, "aiortc did not publish: \((try? String(contentsOfFile: log.file("out"), encoding: .utf8)) ?? "")")

            let job = try server.startJob(.recording, room: room)
            let store = server.api.store
            // The recorder is the proxy's second client; wait until media flows to it.
            var recorder: SocketAddress?
            let flowing = Poll.until(20) {
                recorder = proxy.clientAddresses.dropFirst().first
                return recorder.map { proxy.datagramsToClient($0) > 300 } ?? false
            }
            #expect(flowing, "no media reached the recorder")
            Thread.sleep(forTimeInterval: 3)
            let link = try #require(recorder)
            proxy.cut(link, for: 5)
            if alsoSignalling { signalling.cut(for: 5) }
            let cutAt = Date()
            // Through the blip and 4 s after it, the job stays STARTED.
            var states: Set<JobState> = []
            while Date().timeIntervalSince(cutAt) < 9 {
                if let state = try store.job(job.id)?.state { states.insert(state) }
                Thread.sleep(forTimeInterval: 0.25)
            }
            #expect(states == [.started], "the job went through \(states)")
            let path = try server.mp4Path(try server.stopJob(job))
            let jobLog = server.jobDirectory(job) + "/attempt-1.log"
            defer { print("recorder log:\n" + ((try? String(contentsOfFile: jobLog, encoding: .utf8)) ?? "none")) }

            if alsoSignalling {
                #expect(signalling.connectionsCut == 1)
                let text = (try? String(contentsOfFile: jobLog, encoding: .utf8)) ?? ""
                #expect(text.contains("rejoined the room"), "the recorder did not rejoin")
            }
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            // No hole: frames every 1/30 s and audio packets every 21.3 ms (AAC), through the blip.
            let videoStep = Self.largestStep(try MediaProbe.packets(path, stream: "v:0").map(\.time))
            let audioStep = Self.largestStep(try MediaProbe.packets(path, stream: "a:0").map(\.time))
            print("measured: largest step between video frames \(String(format: "%.3f", videoStep)) s, audio packets \(String(format: "%.3f", audioStep)) s")
            #expect(videoStep < 0.05 && audioStep < 0.05)
            // The picture froze for the blip and came back within 2 s of the link.
            let freeze = Self.longestFreeze(try MediaSamples.lumaPerFrame(of: path))
            print("measured: the picture froze for \(String(format: "%.2f", freeze.seconds)) s across a 5 s blip")
            #expect(freeze.seconds > 4, "the blip did not show (longest freeze \(freeze.seconds) s): was the recorder's link cut?")
            #expect(freeze.seconds < 5 + 2, "live pictures came back \(freeze.seconds - 5) s after the link")
        }
    }
}
