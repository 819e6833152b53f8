import Foundation
import HTTP
import JobSpec
import Capture
import Publisher
import Synchronization
import TestSupport
import WebSocket

/// The people an attack must not hurt, in a room of a `revue serve` under attack: Ann publishes
/// a camera and a tone, a watcher decodes them through the SFU, and a signalling-only member
/// sends a request through the room's loop every 100 ms and times its answer. `during` runs an
/// attack and reports what they saw while it ran, and what the server cost.
final class LegitimateRoom: @unchecked Sendable {
    let server: RevueServe
    let room: String
    let ann: RoomPublisher
    let watcher: RoomPublisher
    private let probe: WebSocketClient

    init(_ server: RevueServe) throws {
        self.server = server
        room = try server.makeRoom()
        let small = CameraFormat(width: 320, height: 180, framesPerSecond: 15)
        ann = try RoomPublisher(configuration: .init(signalingURL: server.signalingURL, roomID: room, token: try server.token(), participantName: "Ann",
                                                     camera: try TestPatternCamera(name: "Ann", rgb: 0x2080D0, format: small),
                                                     microphone: ToneMicrophone(frequency: 440)))
        var configuration = RoomPublisher.Configuration(signalingURL: server.signalingURL, roomID: room, token: try server.token(),
                                                        participantName: "Watcher", camera: nil, microphone: nil)
        configuration.receives = true
        watcher = try RoomPublisher(configuration: configuration)
        probe = try WebSocketClient(url: server.signalingURL)
        try probe.send(text: #"{"v":1,"type":"join","id":"join","token":"\#(try server.token())","roomId":"\#(room)","name":"Probe","mode":"SIGNALLING_ONLY"}"#)
        guard answer(to: "join", within: 10)?.contains("\"joined\"") == true else { throw ToolError("the probe could not join") }
        let deadline = Date().addingTimeInterval(30)
        while framesDecoded < 15 {
            guard Date() < deadline else { throw ToolError("the watcher does not decode Ann: \(framesDecoded) frames") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit {
        _ = probe.close()
        watcher.leave()
        ann.leave()
    }

    /// Ann's video frames the watcher has decoded so far.
    var framesDecoded: Int { watcher.remoteTrack(participantID: ann.participantID, kind: .video)?.statistics.framesDecoded ?? 0 }

    /// The text of the frame answering request `id`, skipping room events; nil when none came in time.
    private func answer(to id: String, within seconds: Double) -> String? {
        let deadline = HTTPConnection.now() + seconds
        while HTTPConnection.now() < deadline {
            guard case .text(let text) = try? probe.receive(until: deadline) else { return nil }
            if text.contains("\"id\":\"\(id)\"") { return text }
        }
        return nil
    }

    /// One signalling round trip through the room's loop: a `setQuality` a signalling-only member
    /// is refused (3066) by the registry. Seconds, or nil when no answer came within `timeout`.
    func roundTrip(timeout: Double = 5) -> Double? {
        let id = "probe-\(UInt32.random(in: 0...UInt32.max))"
        let started = Date()
        do {
            try probe.send(text: #"{"v":1,"type":"setQuality","id":"\#(id)","participantId":"\#(ann.participantID)","quality":"low"}"#)
            guard answer(to: id, within: timeout) != nil else { return nil }
        } catch {
            return nil
        }
        return Date().timeIntervalSince(started)
    }

    /// What the legitimate members saw while an attack ran, and what the server cost.
    struct Report: CustomStringConvertible {
        var name: String
        var seconds: Double
        var roundTrips: [Double]
        var unanswered: Int
        var frames: Int
        /// RTP packets the SFU forwarded to subscribers meanwhile (`/metrics`).
        var forwarded: Int
        var before: ProcessUsage
        var peakResidentMiB: Double
        var after: ProcessUsage
        var afterSettling: ProcessUsage?
        var alive: Bool

        var framesPerSecond: Double { Double(frames) / max(seconds, 0.001) }
        var medianRoundTripMs: Double { roundTrips.isEmpty ? .infinity : roundTrips.sorted()[roundTrips.count / 2] * 1000 }
        var worstRoundTripMs: Double { (roundTrips.max() ?? .infinity) * 1000 }

        var description: String {
            String(format: "%@: %.1f s; server %@; signalling round trip median %.1f ms, worst %.1f ms, %d unanswered of %d; "
                + "Ann's video at the watcher %d frames (%.1f/s); SFU forwarded %d packets; RSS %.1f MiB before, %.1f peak, %.1f after%@; CPU %.2f s; threads %d before, %d after",
                   name, seconds, alive ? "alive" : "DEAD", medianRoundTripMs, worstRoundTripMs, unanswered, roundTrips.count + unanswered,
                   frames, framesPerSecond, forwarded, before.residentMiB, peakResidentMiB, after.residentMiB,
                   afterSettling.map { String(format: ", %.1f settled", $0.residentMiB) } ?? "", after.cpuSeconds - before.cpuSeconds,
                   before.threads, after.threads)
        }
    }

    /// Runs `attack` (on this thread) while the probe and a sampler run beside it, then prints
    /// the report as a `measured:` line. `settle` waits that long after the attack and reads the
    /// memory again (to see it returned).
    func during(_ name: String, settle: Double = 0, _ attack: () throws -> Void) rethrows -> Report {
        let before = server.usage ?? ProcessUsage(residentBytes: 0, cpuSeconds: 0, threads: 0)
        let framesBefore = framesDecoded
        let forwardedBefore = (try? server.metric("revue_sfu_packets_forwarded_total")) ?? 0
        let stop = Atomic<Bool>(false)
        let samples = Mutex<(trips: [Double], unanswered: Int, peak: Int)>(([], 0, before.residentBytes))
        let sampler = Thread { [self] in
            while !stop.load(ordering: .relaxed) {
                let trip = roundTrip()
                let resident = server.usage?.residentBytes ?? 0
                samples.withLock {
                    if let trip { $0.trips.append(trip) } else { $0.unanswered += 1 }
                    $0.peak = max($0.peak, resident)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        let started = Date()
        sampler.start()
        defer { stop.store(true, ordering: .relaxed) }
        try attack()
        let seconds = Date().timeIntervalSince(started)
        stop.store(true, ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.3)
        let frames = framesDecoded - framesBefore
        let forwarded = Int(((try? server.metric("revue_sfu_packets_forwarded_total")) ?? 0) - forwardedBefore)
        let after = server.usage ?? before
        var settled: ProcessUsage?
        if settle > 0 {
            Thread.sleep(forTimeInterval: settle)
            settled = server.usage
        }
        let observed = samples.withLock { $0 }
        let report = Report(name: name, seconds: seconds, roundTrips: observed.trips, unanswered: observed.unanswered, frames: frames,
                            forwarded: forwarded,
                            before: before, peakResidentMiB: Double(max(observed.peak, after.residentBytes)) / 1_048_576, after: after,
                            afterSettling: settled, alive: server.isAlive())
        print("measured: \(report)")
        return report
    }
}
