import Foundation
import Media
@testable import RevueSDK
import Synchronization
import TestSupport
import Testing

/// Buffer tracks (seed 002's `createBufferTrack`, issue 12's "buffer tracks an app feeds with its
/// own frames and samples"): an app pushes its own pictures and sound, the room sends them, and
/// another SDK participant decodes that picture and hears that sound.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct BufferTrackTests {
        final class Heard: Sendable {
            let colour = Mutex<YUVColor?>(nil)
            let loudest = Mutex<Float>(0)
        }

        @Test func theSeedsDefaultsAndTheRefusals() async throws {
            let video = LocalVideoTrack.createBufferTrack(width: 320, height: 180, frameRate: 15)
            #expect(video.bufferName == "buffer" && video.bufferSource == .unknown && video.kind == .camera)
            let track = try #require(video.videoTrack)
            #expect(track.width == 320 && track.height == 180 && track.frameRate == 15)
            #expect(track.frame(0).pixel(x: 10, y: 10) == .black, "black before the first picture")
            let orange = YUVColor(y: 150, u: 60, v: 200)
            try track.push(VideoFrame(width: 320, height: 180, color: orange))
            #expect(track.frame(7).pixel(x: 10, y: 10) == orange)
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try track.push(VideoFrame(width: 640, height: 360)) }
            let patternTrack = try await VideoSDK.makeCameraTrack(encoderConfig: .h90p_w160p, facingMode: .front, multiStream: false, cameraId: nil,
                                                                  maxLayer: .MAX_LAYER_3, bitrateMode: .BALANCED, codec: .VP8, name: "")
            let pattern = try #require(patternTrack.videoTrack)
            #expect(throws: VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG) { try pattern.push(VideoFrame(width: 160, height: 90)) }

            let sound = try #require(LocalAudioTrack.createBufferTrack(name: "voice").audioTrack)
            try sound.push([0.5, -0.5, 0.25])
            #expect(sound.samples(from: 0, count: 5) == [0.5, -0.5, 0.25, 0, 0], "then silence")
        }

        @Test func anotherParticipantDecodesWhatTheAppPushed() async throws {
            let server = try RoomServerHarness()
            let roomId = try server.makeRoom()
            let url = "ws://127.0.0.1:\(server.port)/v2/rtc"
            let camera = LocalVideoTrack.createBufferTrack(name: "drawing", width: 320, height: 180, frameRate: 15)
            let microphone = LocalAudioTrack.createBufferTrack()
            let teal = YUVColor(y: 120, u: 150, v: 60)
            let video = try #require(camera.videoTrack)
            let audio = try #require(microphone.audioTrack)
            try video.push(VideoFrame(width: 320, height: 180, color: teal))
            // The app's own sound, pushed ahead in 100 ms blocks as an app would.
            let feeding = Task.detached {
                var position = 0
                while !Task.isCancelled {
                    let block = (position..<(position + 4_800)).map { Float(0.4 * sin(2 * Double.pi * 660 * Double($0) / 48_000)) }
                    try? audio.push(block)
                    position += 4_800
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            defer { feeding.cancel() }
            let bot = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Drawer", micEnabled: true,
                                              camEnabled: true, customCameraTrack: camera, customMicrophoneTrack: microphone, signalingURL: url)
            let botLog = EventLog()
            bot.addEventListener(botLog)
            try await bot.join()
            #expect(await botLog.wait(timeout: 40) { $0.contains("streamEnabled local VIDEO") && $0.contains("streamEnabled local AUDIO") },
                    "\(botLog.events)")

            let viewer = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: "Viewer", micEnabled: false,
                                                 camEnabled: false, signalingURL: url)
            let viewerLog = EventLog()
            viewer.addEventListener(viewerLog)
            try await viewer.join()
            #expect(await viewerLog.wait(timeout: 40) { $0.contains("streamEnabled Drawer VIDEO") && $0.contains("streamEnabled Drawer AUDIO") },
                    "\(viewerLog.events)")
            let drawer = try #require(viewer.participants.values.first { $0.displayName == "Drawer" })
            let heard = Heard()
            drawer.stream(of: .VIDEO)?.remoteVideoTrack?.setFrameHandler { picture in
                heard.colour.withLock { $0 = picture.pixel(x: 160, y: 90) }
            }
            drawer.stream(of: .AUDIO)?.remoteAudioTrack?.setSampleHandler { chunk in
                let peak = chunk.samples.map(abs).max() ?? 0
                heard.loudest.withLock { $0 = max($0, peak) }
            }
            let deadline = Date().addingTimeInterval(40)
            while Date() < deadline {
                if let colour = heard.colour.withLock({ $0 }), colour.distance(to: teal) < 20, heard.loudest.withLock({ $0 }) > 0.2 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let colour = heard.colour.withLock { $0 }
            let loudest = heard.loudest.withLock { $0 }
            print("measured: buffer tracks: the viewer decoded \(String(describing: colour)) (pushed \(teal)), sound peaking at \(loudest)")
            #expect(colour.map { $0.distance(to: teal) < 20 } == true, "decoded \(String(describing: colour)), pushed \(teal)")
            #expect(loudest > 0.2, "the pushed 660 Hz at 0.4 peaked at \(loudest)")
            try await viewer.leave()
            try await bot.leave()
        }
    }
}
