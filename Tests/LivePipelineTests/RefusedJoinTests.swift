import Foundation
import JobSpec
import Jobs
import Capture
import Publisher
import TestSupport
import Testing

/// A job of a room whose run refuses it runs on its own (issue 26 item 7: each job keeps its own
/// failure). A real run refuses a job only when its composite differs or an output cannot be
/// opened there, which the worker's own check makes rare, so the runs here stand behind
/// `Tests/Peers/refusing_run.py`, which refuses every join on their behalf with the lines a
/// refusing run writes; everything else is the real worker, runs, room and files.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(5))) struct RefusedJoinTests {
        @Test func aJobTheRunOfItsRoomRefusesRunsOnItsOwn() throws {
            let server = try RoomServerHarness()
            let scripts = try TemporaryDirectory(prefix: "refusing-run")
            let executable = scripts.file("revue")
            try "#!/bin/sh\nexec '\(try TestPeers.python())' '\(TestPeers.script("refusing_run.py"))' '\(RevueBinary.path)' \"$@\"\n"
                .write(toFile: executable, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
            server.startWorker(executable: executable)
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let blue = try RoomPublisher(configuration: RoomPublisher.Configuration(
                signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room, token: try server.token(), participantName: "Blue",
                camera: try TestPatternCamera(name: "Blue", rgb: 0x2040D0), microphone: ToneMicrophone(frequency: 1000)))
            defer { blue.leave() }
            #expect(blue.waitUntilPublishing(timeout: 20), "\(blue.failure ?? "")")

            let recording = try server.startJob(.recording, room: room)
            let started = Date()
            // The stream asks to join the recording's run, is refused, and gets a run of its own.
            let hls = try server.startJob(.hls, room: room, until: .playable)
            let notes = SharedCompositeTests.notes(server, hls)
            #expect(notes.contains { $0.contains("did not join the run of its room (its run refused it); it runs on its own") }, "\(notes)")
            #expect(notes.contains { $0.contains("refused by the test's run") }, "\(notes)")
            let runs = SharedCompositeTests.children(of: [recording, hls]).filter { !$0.contains("refusing_run") }
            #expect(runs.count == 2 && runs.contains { $0.contains(hls.idText) }, "\(runs)")
            let log = server.attemptLog(hls)
            #expect(log.hasPrefix("this attempt did not join the run of its room; it runs on its own") && !log.contains("runs in the run of job"),
                    "\(log.prefix(300))")

            // Both go on and end as they would have alone.
            Thread.sleep(forTimeInterval: 3)
            let hlsFinished = try server.stopJob(hls)
            let recordingFinished = try server.stopJob(recording)
            let recordingSpan = Date().timeIntervalSince(started)
            #expect(hlsFinished.state == .stopped && hlsFinished.errorCode == nil, "\(hlsFinished)")
            #expect(recordingFinished.state == .stopped && recordingFinished.errorCode == nil, "\(recordingFinished)")
            let mp4 = try server.mp4Path(recordingFinished)
            let decode = try Tool.decodeFully(mp4)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            let recorded = try MediaProbe.probe(mp4).format.durationSeconds ?? 0
            let part = try #require(hlsFinished.parts.first { $0.kind == .hls })
            let streamed = try MediaProbe.probe(server.storage.path + "/" + part.path + "/index.m3u8").format.durationSeconds ?? 0
            print("measured: the stream refused by the recording's run ran on its own: \(runs.count) runs; "
                + "recording \(String(format: "%.2f", recorded)) s for \(String(format: "%.2f", recordingSpan)) s, HLS \(String(format: "%.2f", streamed)) s")
            #expect(abs(recorded - recordingSpan) < 2, "\(recorded) s recorded for \(recordingSpan) s")
            #expect(streamed > 2, "\(streamed) s streamed")
        }
    }
}
