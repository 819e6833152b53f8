import Foundation
import JobSpec
import Capture
import Publisher
import Synchronization
import TestSupport

/// A live publisher whose clock runs fast (a camera's or a sound card's crystal is off by tens to
/// hundreds of ppm), recorded live for MINUTES: its flash-and-beep clip (`FlashBeepClip`) must
/// stay within a frame of A/V sync from the first minute of the recording to the last, and the
/// recording must not fall behind or build up a queue. Beside it, in the same run and room
/// server, the reference: the same publisher on a true clock, recorded the same way.
enum ClockSkewBench {
    static func run(minutes: Double, ppm: Double) throws {
        let server = try RoomServerHarness()
        server.startWorker()
        defer { server.stopWorker() }
        let media = try TemporaryDirectory(prefix: "clock-skew")
        let clip = try FlashBeepClip.make(in: media)
        var cases: [(name: String, skew: Double, room: String, publisher: RoomPublisher)] = []
        for (name, skew) in [("true clock", 0.0), (String(format: "%+.0f ppm", ppm), ppm * 1e-6)] {
            let room = try server.makeRoom()
            var configuration = RoomPublisher.Configuration(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room,
                                                            token: try server.token(), participantName: name,
                                                            camera: try Y4MFileCamera(path: clip.video), microphone: try WAVFileMicrophone(path: clip.audio))
            configuration.clockSkew = skew
            let publisher = try RoomPublisher(configuration: configuration)
            guard publisher.waitUntilPublishing(timeout: 15) else { throw BenchError("\(name) did not publish: \(publisher.failure ?? "")") }
            cases.append((name, skew, room, publisher))
        }
        let jobs = try cases.map { try server.startJob(.recording, room: $0.room) }
        let started = Date()
        print("clock-skew: recording \(cases.map(\.name).joined(separator: " and ")) live for \(minutes) min")
        Thread.sleep(forTimeInterval: minutes * 60)
        // Both stopped at once, each publisher's clock read at the same moment.
        let statistics = cases.map { $0.publisher.currentStatistics }
        let wall = Date().timeIntervalSince(started)
        let stopped = Mutex<[Int: Result<String, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let path = Result { try server.mp4Path(try server.stopJob(jobs[index], timeout: 120)) }
            stopped.withLock { $0[index] = path }
        }
        for (index, item) in cases.enumerated() {
            item.publisher.leave()
            guard let path = try stopped.withLock({ $0[index] })?.get() else { continue }
            let length = try HoursBench.duration(of: path)
            print("clock-skew: \(item.name): \(String(format: "%.1f", length)) s recorded over \(String(format: "%.1f", wall)) s of wall time; "
                + "the publisher's media clock read \(String(format: "%.2f", statistics[index].mediaSeconds)) s when they were stopped")
            // Beep minus flash, minute by minute: a trend is drift, a change in the first minute settling.
            var means: [Double] = []
            var first: [Double] = [], last: [Double] = []
            for minute in 0..<Int(length / 60) {
                let offsets = try HoursBench.offsets(in: path, from: Double(minute) * 60, seconds: 60)
                if minute == 0 { first = offsets }
                last = offsets
                if !offsets.isEmpty { means.append(offsets.reduce(0, +) / Double(offsets.count)) }
            }
            print("clock-skew: \(item.name): mean beep minus flash per minute (ms): " + means.map { String(format: "%+.1f", $0 * 1000) }.joined(separator: " "))
            print("clock-skew: \(item.name): first minute \(HoursBench.describe(first)); last minute \(HoursBench.describe(last))")
            if let drift = HoursBench.drift(first, last) {
                print(String(format: "clock-skew: %@: drift over %.1f min: %+.1f ms (a frame is 33.3 ms)", item.name, length / 60, drift * 1000))
            }
        }
    }
}
