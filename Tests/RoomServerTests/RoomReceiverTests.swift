import Foundation
import RoomClient
import TestSupport
import Testing

/// Revue's receive path against Revue's send path, through the room server's SFU: a
/// `RoomPublisher` that receives (`Configuration.receives`, as the SDK sets it) decodes one
/// publisher's H.264 and another's VP8, and both tones, and counts them per participant and
/// kind. It asked for a keyframe when each video track started. A publisher that does not
/// receive (the default) declines the offers and has nothing to hand out.
extension BrowserRoomTests {
    @Suite struct RoomReceiverTests {
        static func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition() {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return true
        }

        @Test func aReceivingPublisherDecodesH264AndVP8AndOpus() throws {
            let server = try RoomServerHarness()
            let room = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let small = CameraFormat(width: 320, height: 180, framesPerSecond: 15)
            func sender(_ name: String, _ rgb: UInt32, _ codec: PublishedVideoCodec, _ tone: Double) throws -> RoomPublisher {
                try RoomPublisher(configuration: .init(signalingURL: url, roomID: room, token: try server.token(), participantName: name,
                                                       camera: try TestPatternCamera(name: name, rgb: rgb, format: small),
                                                       microphone: ToneMicrophone(frequency: tone), videoCodec: codec))
            }
            let red = try sender("Red", 0xD02020, .h264, 440)
            defer { red.leave() }
            let blue = try sender("Blue", 0x2040D0, .vp8, 1000)
            defer { blue.leave() }
            var configuration = RoomPublisher.Configuration(signalingURL: url, roomID: room, token: try server.token(), participantName: "Watcher",
                                                            camera: nil, microphone: nil)
            configuration.receives = true
            let watcher = try RoomPublisher(configuration: configuration)
            defer { watcher.leave() }
            #expect(red.remoteTrack(participantID: watcher.participantID, kind: .video) == nil, "a publisher that does not receive hands out nothing")

            let senders = [(red, "H264"), (blue, "VP8")]
            let decoding = Self.waitUntil(30) {
                senders.allSatisfy { publisher, _ in
                    let video = watcher.remoteTrack(participantID: publisher.participantID, kind: .video)?.statistics
                    let audio = watcher.remoteTrack(participantID: publisher.participantID, kind: .audio)?.statistics
                    return (video?.framesDecoded ?? 0) >= 15 && (audio?.samplesDecoded ?? 0) >= 48_000
                }
            }
            for (publisher, codec) in senders {
                let video = try #require(watcher.remoteTrack(participantID: publisher.participantID, kind: .video)).statistics
                let audio = try #require(watcher.remoteTrack(participantID: publisher.participantID, kind: .audio)).statistics
                print("measured: receiver of \(publisher.configuration.participantName): \(video.codec ?? "?") \(video.framesDecoded) frames "
                    + "\(video.frameWidth)x\(video.frameHeight) (\(video.keyframesReceived) keyframes, \(video.keyframeRequests) PLI sent, "
                    + "\(video.packetsLost) lost, \(video.decodeErrors) errors); \(audio.codec ?? "?") \(audio.samplesDecoded) samples "
                    + "(\(audio.samplesConcealed) concealed)")
                #expect(decoding, "\(video) \(audio)")
                #expect(video.codec == codec && audio.codec == "opus")
                #expect(video.frameWidth == 320 && video.frameHeight == 180)
                #expect(video.keyframeRequests >= 1 && video.keyframesReceived >= 1 && video.decodeErrors == 0)
                #expect(audio.decodeErrors == 0)
                #expect(publisher.currentStatistics.sender.pliReceived + publisher.currentStatistics.sender.firReceived >= 1)
            }
            #expect(watcher.failure == nil)
        }
    }
}
