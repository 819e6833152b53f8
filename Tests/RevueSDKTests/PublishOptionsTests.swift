import Foundation
@testable import RevueSDK
import RoomClient
import TestSupport
import Testing

/// The publish-options seed (002) against a real room server: a camera published to one
/// participant with `publishCamera(to:options:)` is checked by what that participant decodes,
/// beside another participant who gets other options from the same camera.
extension RevueSDKTests {
    @MainActor @Suite struct PublishOptionsTests {
        let server: RoomServerHarness
        let roomId: String
        var signalingURL: String { "ws://127.0.0.1:\(server.port)/v2/rtc" }

        init() throws {
            server = try RoomServerHarness()
            roomId = try server.makeRoom()
        }

        func room(_ name: String, cam: Bool = false, camera: CustomStreamTrack? = nil) throws -> (Room, EventLog) {
            let room = try VideoSDK.createRoom(roomId: roomId, token: try server.token(), participantName: name, micEnabled: false,
                                               camEnabled: cam, customCameraTrack: camera, signalingURL: signalingURL)
            let log = EventLog()
            room.addEventListener(log)
            return (room, log)
        }

        /// Waits (polling) until `condition` holds; false after `timeout` seconds.
        static func waitUntil(_ timeout: Double = 20, _ condition: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return condition()
        }

        /// What a receiver decoded of one track over a stretch of time.
        struct Measured: CustomStringConvertible {
            var frames: Int
            var keyframes: Int
            var seconds: Double
            var fps: Double { Double(frames) / seconds }
            var description: String { "\(frames) frames (\(keyframes) keyframes) in \(String(format: "%.1f", seconds)) s" }
        }

        /// Counts what `tracks` receive over `seconds`.
        static func measure(_ tracks: [RemoteVideoTrack], seconds: Double) async -> [Measured] {
            let before = tracks.map(\.statistics)
            let start = Date()
            try? await Task.sleep(for: .seconds(seconds))
            let elapsed = Date().timeIntervalSince(start)
            return zip(before, tracks.map(\.statistics)).map { old, new in
                Measured(frames: new.framesReceived - old.framesReceived, keyframes: new.keyframesReceived - old.keyframesReceived, seconds: elapsed)
            }
        }

        /// Cam sends its camera to Bee with the defaults and to Cee as cbr VP8 at 200 kb/s;
        /// each receives its own publication in place of the room's camera, and a setter on one
        /// changes that participant's stream alone.
        @Test func eachParticipantReceivesTheCameraAsItsPublicationSays() async throws {
            let (bee, beeLog) = try room("Bee")
            try await bee.join()
            let (cee, ceeLog) = try room("Cee")
            try await cee.join()
            // ffmpeg's testsrc2 (motion and detail everywhere), so a bitrate target can be met:
            // the SDK's test pattern is mostly flat and encodes far below any target.
            let directory = try TemporaryDirectory(prefix: "publish-options")
            let clip = directory.file("testsrc2.y4m")
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=4", "-pix_fmt", "yuv420p", clip])
            #expect(made.status == 0, "\(made.standardError)")
            let device = try VideoSDK.addFileCamera(path: clip, label: "testsrc2")
            defer { VideoSDK.removeDevice(deviceId: device.deviceId) }
            let camera = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h180p_w320p, multiStream: false, cameraId: device.deviceId)
            let (cam, camLog) = try room("Cam", cam: true, camera: camera)
            try await cam.join()
            #expect(Room.shared === cam, "Room.shared is the room joined last")
            #expect(await beeLog.wait(for: "streamEnabled Cam VIDEO"), "\(beeLog.events)")
            #expect(await ceeLog.wait(for: "streamEnabled Cam VIDEO"), "\(ceeLog.events)")
            let beeVideo = try #require(bee.participants.values.first { $0.displayName == "Cam" }?.stream(of: .VIDEO)?.remoteVideoTrack)
            let ceeVideo = try #require(cee.participants.values.first { $0.displayName == "Cam" }?.stream(of: .VIDEO)?.remoteVideoTrack)
            #expect(await Self.waitUntil { beeVideo.statistics.framesDecoded > 0 && ceeVideo.statistics.framesDecoded > 0 })
            let roomSSRCs = (beeVideo.statistics.ssrc, ceeVideo.statistics.ssrc)

            // As the seed's examples: Room.shared's local participant publishes to each.
            guard let local = Room.shared.localParticipant else { throw RoomError.notJoined }
            let toBee = try #require(cam.participants.values.first { $0.displayName == "Bee" })
            let toCee = try #require(cam.participants.values.first { $0.displayName == "Cee" })
            let beePublication = try await local.publishCamera(to: toBee)
            #expect(beePublication.videoPublishOptions == VideoPublishOptions(codec: .vp8AllKeyframe, maxFps: 15))
            let cbr = Vp8Encoding(maxBitrate: 200_000, cpuUsed: 8, quantizerMin: 4, quantizerMax: 56, keyframeInterval: 300, rateControlMode: .cbr)
            let ceePublication = try await local.publishCamera(to: toCee, options: VideoPublishOptions(codec: .vp8(cbr), maxFps: 15))
            #expect(await Self.waitUntil {
                beeVideo.statistics.ssrc != roomSSRCs.0 && ceeVideo.statistics.ssrc != roomSSRCs.1
                    && beeVideo.statistics.framesDecoded > 30 && ceeVideo.statistics.framesDecoded > 30
            }, "bee \(beeVideo.statistics), cee \(ceeVideo.statistics)")

            var measured = await Self.measure([beeVideo, ceeVideo], seconds: 10)
            print("measured: vp8AllKeyframe at maxFps 15 (camera 30 fps): \(measured[0]); cbr 200 kb/s: \(measured[1])")
            #expect(measured[0].keyframes == measured[0].frames && measured[0].frames > 0, "vp8AllKeyframe sends only keyframes: \(measured[0])")
            #expect(measured[0].fps <= 15.5 && measured[0].fps >= 12, "maxFps 15: \(measured[0])")
            #expect(measured[1].keyframes <= 2, "a keyframe every 300 frames: \(measured[1])")

            // A setter changes one participant's stream and not the other's.
            try beePublication.setMaxFps(5)
            try? await Task.sleep(for: .seconds(1))
            measured = await Self.measure([beeVideo, ceeVideo], seconds: 4)
            print("measured: after Bee's setMaxFps(5): Bee \(measured[0]); Cee \(measured[1])")
            #expect(measured[0].fps <= 5.5 && measured[0].fps >= 3.5, "Bee at 5 fps: \(measured[0])")
            #expect(measured[1].fps >= 12, "Cee still at 15 fps: \(measured[1])")

            // The codec's errors, and the switch of one participant to H.264.
            #expect(throws: RoomError.codecNotSupported(codec: .vp8)) { try beePublication.setH264Encoding(H264Encoding(maxBitrate: 500_000)) }
            #expect(throws: RoomError.invalidParameter(name: "maxFps", reason: "must be 1 to 60, not 0")) { try beePublication.setMaxFps(0) }
            try beePublication.setCodec(.h264(H264Encoding(maxBitrate: 300_000)))
            #expect(await Self.waitUntil { beeVideo.statistics.codec == "H264" && beeVideo.statistics.framesDecoded > 0 }, "\(beeVideo.statistics)")
            let h264Decoded = beeVideo.statistics.framesDecoded
            #expect(await Self.waitUntil { beeVideo.statistics.framesDecoded > h264Decoded + 10 }, "\(beeVideo.statistics)")
            #expect(ceeVideo.statistics.codec == "VP8")
            #expect(throws: RoomError.codecNotSupported(codec: .h264)) { try beePublication.setVp8Encoding(.highQuality) }
            #expect(throws: RoomError.invalidParameter(name: "maxBitrate", reason: "must be above 0, not 0")) {
                try beePublication.setH264Encoding(H264Encoding(maxBitrate: 0))
            }
            try beePublication.requestKeyframe()

            // Unpublished, Bee gets the room's camera again and the publication's calls throw.
            let directed = beeVideo.statistics.ssrc
            beePublication.unpublish()
            #expect(await Self.waitUntil { beeVideo.statistics.ssrc != directed && beeVideo.statistics.codec == "VP8" }, "\(beeVideo.statistics)")
            #expect(throws: RoomError.trackNotPublished) { try beePublication.setMaxFps(10) }
            #expect(throws: RoomError.trackNotPublished) { try beePublication.requestKeyframe() }
            #expect(ceePublication.isPublished)
            #expect(beeVideo.statistics.decodeErrors == 0 && ceeVideo.statistics.decodeErrors == 0, "bee \(beeVideo.statistics), cee \(ceeVideo.statistics)")

            try await cam.leave()
            #expect(!ceePublication.isPublished)
            try await bee.leave()
            try await cee.leave()
            #expect(camLog.errors.isEmpty && beeLog.errors.isEmpty && ceeLog.errors.isEmpty, "\(camLog.errors) \(beeLog.errors) \(ceeLog.errors)")
        }

        /// Options out of range are refused before anything is sent, and outside a room there
        /// is nothing to publish in.
        @Test func publishCameraRefusesOptionsOutOfRange() async throws {
            let (bee, _) = try room("Bee")
            try await bee.join()
            let (cam, _) = try room("Cam")
            try await cam.join()
            let local = try #require(cam.localParticipant)
            let toBee = try #require(cam.participants.values.first)
            await #expect(throws: RoomError.invalidParameter(name: "maxFps", reason: "must be 1 to 60, not 61")) {
                try await local.publishCamera(to: toBee, options: VideoPublishOptions(maxFps: 61))
            }
            await #expect(throws: RoomError.invalidParameter(name: "quantizerMax", reason: "must be 0 to 63 and not below quantizerMin (30), not 20")) {
                try await local.publishCamera(to: toBee, options: VideoPublishOptions(codec: .vp8(Vp8Encoding(quantizerMax: 20))))
            }
            await #expect(throws: RoomError.invalidParameter(name: "temporalLayers", reason: "must be 1 to 3, not 4")) {
                try await local.publishCamera(to: toBee, options: VideoPublishOptions(codec: .vp8(Vp8Encoding(temporalLayers: 4))))
            }
            await #expect(throws: RoomError.invalidParameter(name: "cpuUsed", reason: "must be -16 to 16, not 17")) {
                try await local.publishCamera(to: toBee, options: VideoPublishOptions(codec: .vp8(Vp8Encoding(cpuUsed: 17))))
            }
            try await cam.leave()
            await #expect(throws: RoomError.notJoined) { try await local.publishCamera(to: toBee) }
            try await bee.leave()
        }

        /// The defaults and presets of the seed's tables.
        @Test func theDefaultsAndPresetsAreTheSeeds() {
            #expect(VideoPublishOptions().codec == .vp8AllKeyframe && VideoPublishOptions().maxFps == 15)
            #expect(VideoPublishOptions().degradationPreference == .balanced)
            #expect(Vp8Encoding() == .allKeyframe)
            let all = Vp8Encoding.allKeyframe
            let fields: [Int] = [all.maxBitrate, all.cpuUsed, all.quantizerMin, all.quantizerMax, all.keyframeInterval, all.cqLevel, all.temporalLayers]
            #expect(fields == [3_000_000, 16, 30, 40, 1, 30, 1])
            #expect(all.rateControlMode == .vbr)
            let presets: [(VideoCodec, VideoCodecType, Int, Int?, RcMode?)] = [
                (.vp8AllKeyframe, .vp8, 3_000_000, 1, .vbr), (.vp8LowLatency, .vp8, 3_000_000, 15, .cbr),
                (.vp8HighQuality, .vp8, 8_000_000, 60, .vbr), (.vp8LowBandwidth, .vp8, 1_500_000, 10, .cq),
                (.h264Default, .h264, 3_000_000, nil, nil),
            ]
            for (codec, type, bitrate, interval, mode) in presets {
                let sent: Int? = codec.vp8Encoding?.maxBitrate ?? codec.h264Encoding?.maxBitrate
                let keyframeInterval: Int? = codec.vp8Encoding?.keyframeInterval
                let rateControl: RcMode? = codec.vp8Encoding?.rateControlMode
                #expect(codec.type == type)
                #expect(sent == bitrate)
                #expect(keyframeInterval == interval)
                #expect(rateControl == mode)
            }
            #expect(VideoCodec.vp8LowLatency.vp8Encoding == .lowLatency)
            #expect([AudioEncoding.presetSpeech, .presetMusic, .presetMusicHighQuality].map(\.maxBitrate) == [24_000, 128_000, 192_000])
            #expect(AudioPublishOptions().encoding == .presetSpeech)
            #expect(Room.shared.localParticipant == nil || Room.shared.state != .NEW)
        }
    }
}
