import Foundation
import JobSpec
import Jobs
import Media
import Capture
import Publisher
import TestSupport
import Testing

/// Issue 12's H.264 send path, end to end: a `RoomPublisher` asked for H.264 offers only H.264
/// for its camera, the room server negotiates it (packetization-mode=1, Constrained Baseline),
/// the SFU forwards it, and the worker's live recorder decodes it: the recording shows the
/// publisher's colour and has its tone. The recorder's subscription made the SFU ask the
/// publisher for a keyframe (a PLI or FIR), and x264 answered with an IDR picture.
extension RoomClientLiveSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct H264PublisherTests {
        @Test func anH264PublisherIsRecordedLive() throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            let publisher = try RoomPublisher(configuration: .init(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room,
                                                                   token: try server.token(), participantName: "H264 Green",
                                                                   camera: try TestPatternCamera(name: "H264 Green", rgb: 0x20B040),
                                                                   microphone: ToneMicrophone(frequency: 660), videoCodec: .h264))
            defer { publisher.leave() }
            #expect(publisher.waitUntilPublishing(timeout: 15), "\(publisher.failure ?? "") \(publisher.currentStatistics)")
            #expect(publisher.currentStatistics.videoCodec == "H264")

            let job = try server.startJob(.recording, room: room)
            Thread.sleep(forTimeInterval: 7)
            let path: String
            do {
                path = try server.mp4Path(try server.stopJob(job))
            } catch {
                print("recorder log:\n" + server.attemptLog(job))
                throw error
            }
            let statistics = publisher.currentStatistics
            print("measured: H.264 publisher \(statistics.videoFramesEncoded) frames (\(statistics.keyframesEncoded) keyframes, "
                + "\(statistics.videoFramesSkipped) skipped), \(statistics.sender.packetsSent) packets, "
                + "\(statistics.sender.pliReceived) PLI + \(statistics.sender.firReceived) FIR, REMB \(statistics.sender.estimatedBitrate ?? 0) b/s, "
                + "target \(statistics.videoBitrate) b/s")
            #expect(statistics.sender.pliReceived + statistics.sender.firReceived >= 1)
            #expect(statistics.keyframesEncoded >= 2, "the first IDR picture and one for the recorder")
            #expect(publisher.failure == nil)

            // The recording decodes cleanly and shows the publisher's picture: its colour where
            // the test pattern is plain, in the one tile of a one-person room.
            let decode = try Tool.decodeFully(path)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            let duration = try #require(try MediaProbe.probe(path).format.durationSeconds)
            let picture = try MediaSamples.frame(of: path, at: duration - 1.5, width: 1280, height: 720)
            let green = YUVColor(red: 0x20, green: 0xB0, blue: 0x40)
            let sample = picture.pixel(x: 640, y: 120)
            #expect(sample.distance(to: green) < 40, "the tile is \(sample), not the publisher's \(green)")
            let samples = try MediaSamples.monoAudio(of: path)
            let middle = samples[min(samples.count, 2 * 48_000)..<min(samples.count, Int(max(2, duration - 1)) * 48_000)]
            #expect(Goertzel.prominence(of: middle, frequency: 660) > 10)
        }
    }
}
