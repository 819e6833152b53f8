import Capture
import Foundation
import JobSpec
import Jobs
import Publisher
import TestSupport
import Testing

/// The recorder receives each camera at the simulcast layer its tile needs (issue 26 item 8): a
/// publisher sending three layers of 1280x720 (as Chromium does), in a four-person grid of a
/// 720p recording whose tiles are about 640x360, is asked for its half layer as soon as it is
/// announced, before anything of it is decoded, and no 1280x720 picture of it shows in the
/// recorder's asks or at the end; the three others send one small
/// layer, which the recorder takes as it is after asking for more and finding none.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct LiveLayerChoiceTests {
        @Test func aSimulcastCameraIsReceivedAtTheLayerItsTileNeeds() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            var sending = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: "Layers",
                                                      camera: try TestPatternCamera(name: "Layers", rgb: 0xD02020, format: .h720p_w1280p),
                                                      microphone: nil)
            sending.simulcast = [SimulcastEncoding(rid: "q", scaleDown: 4, bitrate: 150_000), SimulcastEncoding(rid: "h", scaleDown: 2, bitrate: 400_000),
                                 SimulcastEncoding(rid: "f", scaleDown: 1, bitrate: 1_200_000)]
            let layered = try RoomPublisher(configuration: sending)
            defer { layered.leave() }
            var others: [RoomPublisher] = []
            defer { for other in others { other.leave() } }
            for (name, rgb) in [("Ben", UInt32(0x2040D0)), ("Cy", 0x30A050), ("Di", 0xE08020)] {
                others.append(try RoomPublisher(configuration: .init(signalingURL: url, roomID: room, token: try server.token(), participantName: name,
                                                                     camera: try TestPatternCamera(name: name, rgb: rgb, format: CameraFormat(width: 320, height: 180)),
                                                                     microphone: nil)))
            }
            #expect((others + [layered]).allSatisfy { $0.waitUntilPublishing(timeout: 20) }, "\(layered.failure ?? "")")

            let job = try server.startJob(.recording, room: room)
            // The half layer is asked for as soon as the camera is announced, before its media.
            let asked = Poll.until(40) { server.attemptLog(job).contains("asked for a camera layer") }
            #expect(asked, "\(server.attemptLog(job).suffix(2000))")
            // Several seconds of media, most of them at the new layer.
            let settled = Poll.until(40) { ((try? server.api.store.job(job.id))??.progress?.mediaTime ?? 0) >= 8 }
            _ = try server.stopJob(job)
            let log = server.attemptLog(job)
            let end = log.split(separator: "\n").last { $0.contains("camera layers at the end") }.map(String.init) ?? ""
            print("measured: recorder's camera layers at the end: \(end)")
            // Its top layer is never decoded: the first ask comes before anything of it is, and
            // no later line finds a 1280x720 picture of it, at any level.
            let asks = log.split(separator: "\n").filter { $0.contains("asked for a camera layer") }
            let first = asks.first { $0.contains("\"participantId\":\"\(layered.participantID)\"") }.map(String.init) ?? ""
            print("measured: the first ask for the simulcast camera: \(first)")
            #expect(first.contains("\(layered.participantID) medium nothing decoded"), "\(first)")
            let topDecoded = ["low", "medium", "high"].map { "\(layered.participantID) \($0) 1280x720" }
            #expect(!(asks.map(String.init) + [end]).contains { line in topDecoded.contains { line.contains($0) } }, "\(asks)")
            #expect(settled && end.contains("\(layered.participantID) medium 640x360 for"), "\(end)\n\(log.suffix(3000))")
            for other in others {
                #expect(end.contains("\(other.participantID) ") && !end.contains("\(other.participantID) nothing decoded"), "\(end)")
            }
        }
    }
}
