import Foundation
import JobSpec
import Jobs
import Media
import Capture
import Publisher
import TestSupport
import Testing

/// End-to-end encryption through a live room (docs/E2EE.md): a publisher with a key encrypts
/// each VP8 or H.264 and Opus frame before packetization and says so at join; the SFU forwards
/// what it cannot decrypt; the recorder records the picture and the tone only when the job has the
/// room's key, and without it shows the placeholder and no sound, never undecodable pictures.
extension LivePipelineSuites {
    @Suite(.live, .timeLimit(.minutes(10))) struct E2EERecordingTests {
        @Test(arguments: PublishedVideoCodec.allCases)
        func anEncryptedPublisherIsRecordedOnlyWithTheRoomsKey(codec: PublishedVideoCodec) throws {
            let server = try RoomServerHarness()
            server.startWorker()
            defer { server.stopWorker() }
            let room = try server.makeRoom()
            var configuration = RoomPublisher.Configuration(signalingURL: "ws://127.0.0.1:\(server.port)/v2/rtc", roomID: room,
                                                            token: try server.token(), participantName: "Sealed Green",
                                                            camera: try TestPatternCamera(name: "Sealed Green", rgb: 0x20B040),
                                                            microphone: ToneMicrophone(frequency: 660))
            configuration.e2eeKeys = { E2EEKeys(sharedKey: "the room's secret") }
            configuration.videoCodec = codec
            let publisher = try RoomPublisher(configuration: configuration)
            defer { publisher.leave() }
            #expect(publisher.waitUntilPublishing(timeout: 15), "\(publisher.failure ?? "") \(publisher.currentStatistics)")
            let green = YUVColor(red: 0x20, green: 0xB0, blue: 0x40)

            // Without the key: the participant's tile is the placeholder and the mix is silent.
            let blind = try server.startJob(.recording, room: room)
            Thread.sleep(forTimeInterval: 5)
            let blindPath = try server.mp4Path(try server.stopJob(blind))
            let blindDecode = try Tool.decodeFully(blindPath)
            #expect(blindDecode.status == 0 && blindDecode.standardError.isEmpty, "\(blindDecode.standardError)")
            let blindDuration = try #require(try MediaProbe.probe(blindPath).format.durationSeconds)
            let placeholder = try MediaSamples.frame(of: blindPath, at: blindDuration - 1, width: 1280, height: 720).pixel(x: 640, y: 120)
            // The default theme's placeholder is a dark slate, about 60 from this green in YUV;
            // the sound and the log below tell the same from two other sides.
            #expect(placeholder.distance(to: green) > 45, "without the key the tile is \(placeholder), the publisher's own colour")
            let blindSound = try MediaSamples.monoAudio(of: blindPath)
            #expect(Goertzel.prominence(of: blindSound[...], frequency: 660) < 3, "the tone came through without the key")
            #expect(server.attemptLog(blind).contains("end-to-end encrypted and this job has no key"), "\(server.attemptLog(blind))")

            // With the room's key: the picture and the tone.
            let keyed = try server.startJob(.recording, room: room,
                                            config: ["e2ee": .object(["sharedKey": .string("the room's secret")])])
            Thread.sleep(forTimeInterval: 6)
            let keyedPath = try server.mp4Path(try server.stopJob(keyed))
            let decode = try Tool.decodeFully(keyedPath)
            #expect(decode.status == 0 && decode.standardError.isEmpty, "\(decode.standardError)")
            let duration = try #require(try MediaProbe.probe(keyedPath).format.durationSeconds)
            let tile = try MediaSamples.frame(of: keyedPath, at: duration - 1.5, width: 1280, height: 720).pixel(x: 640, y: 120)
            #expect(tile.distance(to: green) < 40, "with the key the tile is \(tile), not the publisher's \(green)")
            let sound = try MediaSamples.monoAudio(of: keyedPath)
            let middle = sound[min(sound.count, 2 * 48_000)..<min(sound.count, Int(max(2, duration - 1)) * 48_000)]
            #expect(Goertzel.prominence(of: middle, frequency: 660) > 10)
            // The key never reaches a log.
            #expect(!server.attemptLog(keyed).contains("the room's secret"))
            print("measured: E2EE \(codec.encodingName) publisher \(publisher.currentStatistics.videoFramesEncoded) frames sent encrypted; "
                + "recorded without the key: tile \(placeholder); with it: tile \(tile)")
        }
    }
}
