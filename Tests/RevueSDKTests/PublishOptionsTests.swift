import Foundation
@testable import RevueSDK
import RoomReceiver
import TestSupport
import Testing

/// The publish-options seed (002) against a real room server: a camera published to one
/// participant with `publishCamera(to:options:)` is checked by what that participant decodes,
/// beside another participant who gets other options from the same camera.
extension RevueSDKTests {
    @MainActor @Suite(.live, .timeLimit(.minutes(10))) struct PublishOptionsTests {
        let harness: HarnessRoom

        init() throws {
            harness = try HarnessRoom()
        }

        /// The frames a receiver got (`RemoteTrack.setFrameObserver`), as they came.
        final class FrameLog: @unchecked Sendable {
            private let lock = NSLock()
            private var frames: [ReceivedVideoFrame] = []

            init(_ track: RemoteVideoTrack) {
                track.track.setFrameObserver { [weak self] frame in self?.lock.withLock { self?.frames.append(frame) } }
            }

            /// The frames received from now for `seconds`.
            func record(seconds: Double) async -> Measured {
                lock.withLock { frames.removeAll() }
                try? await Task.sleep(for: .seconds(seconds))
                return Measured(frames: lock.withLock { frames }, seconds: seconds)
            }
        }

        /// What a receiver got of one track over a stretch of time.
        struct Measured: CustomStringConvertible {
            var frames: [ReceivedVideoFrame]
            var seconds: Double
            var keyframes: Int { frames.filter(\.isKeyframe).count }
            /// Frames a second, from the frames' RTP timestamps (90 kHz): the sender's rate, not
            /// the arrival's jitter.
            var fps: Double {
                guard let first = frames.first, let last = frames.last, frames.count > 1 else { return 0 }
                return Double(frames.count - 1) / (Double(last.rtpTimestamp - first.rtpTimestamp) / 90_000)
            }
            /// The least time between two frames, in seconds.
            var shortestInterval: Double {
                zip(frames, frames.dropFirst()).map { Double($1.rtpTimestamp - $0.rtpTimestamp) / 90_000 }.min() ?? 0
            }
            /// Bits a second the frames carried, over the time they cover.
            var bitsPerSecond: Double {
                guard let first = frames.first, let last = frames.last, last.arrivalTime > first.arrivalTime else { return 0 }
                // The first frame's bytes came before the stretch began.
                return Double(frames.dropFirst().reduce(0) { $0 + $1.size } * 8) / (last.arrivalTime - first.arrivalTime)
            }
            var temporalLayers: [UInt8?] { frames.map(\.temporalLayerID) }
            var description: String {
                String(format: "%d frames (%d keyframes) in %.1f s, %.1f fps, %.0f kb/s", frames.count, keyframes, seconds, fps, bitsPerSecond / 1000)
            }
        }

        /// Cam sends its camera to Bee with the defaults and to Cee as cbr VP8 at 200 kb/s;
        /// each receives its own publication in place of the room's camera, and a setter on one
        /// changes that participant's stream alone.
        @Test func eachParticipantReceivesTheCameraAsItsPublicationSays() async throws {
            let (bee, beeLog) = try harness.room("Bee")
            try await bee.join()
            let (cee, ceeLog) = try harness.room("Cee")
            try await cee.join()
            // ffmpeg's testsrc2 (motion and detail everywhere), so a bitrate target can be met:
            // the SDK's test pattern is mostly flat and encodes far below any target.
            let directory = try TemporaryDirectory(prefix: "publish-options")
            let (camera, device) = try await RevueSDKTests.testsrc2Camera(in: directory, rate: 30, seconds: 4)
            defer { VideoSDK.removeDevice(deviceId: device) }
            let (cam, camLog) = try harness.room("Cam", cam: true, camera: camera)
            try await cam.join()
            #expect(Room.shared === cam, "Room.shared is the room joined last")
            #expect(await beeLog.wait(for: "streamEnabled Cam VIDEO"), "\(beeLog.events)")
            #expect(await ceeLog.wait(for: "streamEnabled Cam VIDEO"), "\(ceeLog.events)")
            let beeVideo = try #require(bee.participants.values.first { $0.displayName == "Cam" }?.stream(of: .VIDEO)?.remoteVideoTrack)
            let ceeVideo = try #require(cee.participants.values.first { $0.displayName == "Cam" }?.stream(of: .VIDEO)?.remoteVideoTrack)
            #expect(await RevueSDKTests.waitUntil { beeVideo.statistics.framesDecoded > 0 && ceeVideo.statistics.framesDecoded > 0 })
            let roomSSRCs = (beeVideo.statistics.ssrc, ceeVideo.statistics.ssrc)

            // As the seed's examples: Room.shared's local participant publishes to each.
            guard let local = Room.shared.localParticipant else { throw RoomError.notJoined }
            let toBee = try #require(cam.participants.values.first { $0.displayName == "Bee" })
            let toCee = try #require(cam.participants.values.first { $0.displayName == "Cee" })
            let beePublication = try await local.publishCamera(to: toBee)
            #expect(beePublication.videoPublishOptions == VideoPublishOptions(codec: .vp8AllKeyframe, maxFps: 15))
            let cbr = Vp8Encoding(maxBitrate: 200_000, cpuUsed: 8, quantizerMin: 4, quantizerMax: 56, keyframeInterval: 300, rateControlMode: .cbr)
            let ceePublication = try await local.publishCamera(to: toCee, options: VideoPublishOptions(codec: .vp8(cbr), maxFps: 15))
            #expect(await RevueSDKTests.waitUntil {
                beeVideo.statistics.ssrc != roomSSRCs.0 && ceeVideo.statistics.ssrc != roomSSRCs.1
                    && beeVideo.statistics.framesDecoded > 30 && ceeVideo.statistics.framesDecoded > 30
            }, "bee \(beeVideo.statistics), cee \(ceeVideo.statistics)")

            let beeFrames = FrameLog(beeVideo)
            let ceeFrames = FrameLog(ceeVideo)
            async let beeWindow = beeFrames.record(seconds: 10)
            async let ceeWindow = ceeFrames.record(seconds: 10)
            var (bee10, cee10) = await (beeWindow, ceeWindow)
            print("measured: vp8AllKeyframe at maxFps 15 (camera 30 fps), as Bee received it: \(bee10)")
            print("measured: cbr at 200 kb/s, maxFps 15, as Cee received it: \(cee10)")
            #expect(bee10.frames.count > 100 && bee10.keyframes == bee10.frames.count, "vp8AllKeyframe sends only keyframes: \(bee10)")
            #expect(bee10.fps <= 15.05 && bee10.shortestInterval >= 1 / 15.0 - 0.002, "maxFps 15: \(bee10), shortest \(bee10.shortestInterval) s")
            #expect(abs(cee10.bitsPerSecond - 200_000) <= 40_000, "maxBitrate 200 kb/s within ±20 % over 10 s: \(cee10)")
            #expect(cee10.keyframes <= 2 && cee10.fps <= 15.05, "a keyframe every 300 frames: \(cee10)")
            #expect(bee10.temporalLayers.allSatisfy { $0 == nil } && cee10.temporalLayers.allSatisfy { $0 == nil }, "one layer: no TID")

            // A setter changes one participant's stream and not the other's.
            try beePublication.setMaxFps(5)
            try? await Task.sleep(for: .seconds(1))
            (bee10, cee10) = await (beeFrames.record(seconds: 4), ceeFrames.record(seconds: 0))
            let ceeAfter = await ceeFrames.record(seconds: 4)
            print("measured: after Bee's setMaxFps(5): Bee \(bee10); Cee \(ceeAfter)")
            #expect(bee10.fps <= 5.05 && bee10.fps >= 4, "Bee at 5 fps: \(bee10)")
            #expect(ceeAfter.fps >= 14, "Cee still at 15 fps: \(ceeAfter)")

            // What Cee receives over 3 s once a second has passed since its publication took `encoding`.
            func ceeReceives(_ encoding: Vp8Encoding) async throws -> Measured {
                try ceePublication.setVp8Encoding(encoding)
                try? await Task.sleep(for: .seconds(1))
                return await ceeFrames.record(seconds: 3)
            }

            // Temporal layers on Cee's publication, marked in the VP8 payload descriptor; Bee's
            // stream has none.
            var layered = cbr
            layered.temporalLayers = 2
            let two = try await ceeReceives(layered)
            layered.temporalLayers = 3
            let three = try await ceeReceives(layered)
            let beeLayers = await beeFrames.record(seconds: 1)
            func pattern(_ measured: Measured) -> String { measured.temporalLayers.prefix(12).map { $0.map(String.init) ?? "-" }.joined() }
            print("measured: TIDs Cee received with temporalLayers 2: \(pattern(two)) (\(two)); with 3: \(pattern(three)) (\(three))")
            #expect(Set(two.temporalLayers) == [0, 1] && two.frames.count > 20, "\(two.temporalLayers)")
            #expect(zip(two.temporalLayers, two.temporalLayers.dropFirst()).allSatisfy { $0 != $1 }, "2 layers alternate: \(two.temporalLayers)")
            #expect(Set(three.temporalLayers) == [0, 1, 2] && three.frames.count > 20, "\(three.temporalLayers)")
            let base = three.temporalLayers.filter { $0 == 0 }.count
            #expect(abs(Double(base) / Double(three.frames.count) - 0.25) < 0.08, "3 layers: a base frame in four: \(three.temporalLayers)")
            #expect(beeLayers.temporalLayers.allSatisfy { $0 == nil } && !beeLayers.frames.isEmpty, "Bee's stream has no layers")

            // RcMode cq aims for cqLevel's quality, the bitrate only a ceiling: a finer level
            // sends more of the same pictures (the seed's "cq: aims for the quality in cqLevel").
            var constantQuality = cbr
            constantQuality.rateControlMode = .cq
            constantQuality.maxBitrate = 3_000_000
            constantQuality.cqLevel = 10
            let fine = try await ceeReceives(constantQuality)
            constantQuality.cqLevel = 50
            let coarse = try await ceeReceives(constantQuality)
            print("measured: cq at level 10: \(fine); at level 50: \(coarse)")
            #expect(fine.bitsPerSecond > 2 * coarse.bitsPerSecond && coarse.frames.count > 20, "fine \(fine), coarse \(coarse)")

            // The codec's errors, and the switch of one participant to H.264.
            #expect(throws: RoomError.codecNotSupported(codec: .vp8)) { try beePublication.setH264Encoding(H264Encoding(maxBitrate: 500_000)) }
            #expect(throws: RoomError.invalidParameter(name: "maxFps", reason: "must be 1 to 60, not 0")) { try beePublication.setMaxFps(0) }
            try beePublication.setCodec(.h264(H264Encoding(maxBitrate: 300_000)))
            #expect(await RevueSDKTests.waitUntil { beeVideo.statistics.codec == "H264" && beeVideo.statistics.framesDecoded > 0 }, "\(beeVideo.statistics)")
            let h264Decoded = beeVideo.statistics.framesDecoded
            #expect(await RevueSDKTests.waitUntil { beeVideo.statistics.framesDecoded > h264Decoded + 10 }, "\(beeVideo.statistics)")
            #expect(ceeVideo.statistics.codec == "VP8")
            #expect(throws: RoomError.codecNotSupported(codec: .h264)) { try beePublication.setVp8Encoding(.highQuality) }
            #expect(throws: RoomError.invalidParameter(name: "maxBitrate", reason: "must be above 0, not 0")) {
                try beePublication.setH264Encoding(H264Encoding(maxBitrate: 0))
            }
            // setH264Encoding changes the settings and keeps the codec (the seed).
            try beePublication.setH264Encoding(H264Encoding(maxBitrate: 150_000))
            #expect(await RevueSDKTests.waitUntil { beePublication.statistics?.bitrate == 150_000 }, "\(String(describing: beePublication.statistics))")
            let h264Later = beeVideo.statistics.framesDecoded
            #expect(await RevueSDKTests.waitUntil { beeVideo.statistics.codec == "H264" && beeVideo.statistics.framesDecoded > h264Later + 10 },
                    "\(beeVideo.statistics)")
            try beePublication.requestKeyframe()
            // requestKeyframe encodes the next picture as a keyframe: Cee's stream (a keyframe
            // every 300 frames, 20 s at 15 fps) gets one within a second and a half.
            let ceeKeyframes = (ceePublication.statistics?.keyframesEncoded ?? 0, ceeVideo.statistics.keyframesReceived)
            try ceePublication.requestKeyframe()
            #expect(await RevueSDKTests.waitUntil(1.5) {
                (ceePublication.statistics?.keyframesEncoded ?? 0) > ceeKeyframes.0 && ceeVideo.statistics.keyframesReceived > ceeKeyframes.1
            }, "\(String(describing: ceePublication.statistics)) \(ceeVideo.statistics)")

            // Unpublished, Bee gets the room's camera again and the publication's calls throw.
            let directed = beeVideo.statistics.ssrc
            beePublication.unpublish()
            #expect(await RevueSDKTests.waitUntil { beeVideo.statistics.ssrc != directed && beeVideo.statistics.codec == "VP8" }, "\(beeVideo.statistics)")
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
            let (bee, _) = try harness.room("Bee")
            try await bee.join()
            let (cam, _) = try harness.room("Cam")
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
