import Capture
import Foundation
import JobSpec
import Jobs
import Publisher
import TestSupport
import Testing

/// The recorder receives each camera at the simulcast layer its tile needs (issue 26 item 8): a
/// publisher sending three layers of 1280x720 (as Chromium does), in a four-person grid of a
/// 720p recording whose tiles are about 640x360, is asked for its half layer and decoded at
/// 640x360; the three others send one small layer and are left as they are.
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
            // The step is asked once a picture is decoded, and the half layer comes at its next keyframe.
            let asked = Poll.until(40) { server.attemptLog(job).contains("asked for a camera layer") }
            #expect(asked, "\(server.attemptLog(job).suffix(2000))")
            // Several seconds of media, most of them at the new layer.
            let settled = Poll.until(40) { ((try? server.api.store.job(job.id))??.progress?.mediaTime ?? 0) >= 8 }
            _ = try server.stopJob(job)
            let log = server.attemptLog(job)
            let end = log.split(separator: "\n").last { $0.contains("camera layers at the end") }.map(String.init) ?? ""
            print("measured: recorder's camera layers at the end: \(end)")
            #expect(settled && end.contains("\(layered.participantID) medium 640x360 for"), "\(end)\n\(log.suffix(3000))")
            for other in others {
                #expect(end.contains("\(other.participantID) ") && !end.contains("\(other.participantID) nothing decoded"), "\(end)")
            }
        }
    }
}
