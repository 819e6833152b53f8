import Capture
import Foundation
import Media
@testable import RevueSDK
import TestSupport
import Testing

/// The custom-tracks seed (000): its three tables, `NoiseConfig`'s rules, `CustomStreamTrack`'s
/// end rules, and the errors `createCameraVideoTrack` / `createMicrophoneAudioTrack` throw. No
/// server: these are the SDK's own.
extension RevueSDKTests {
    @Suite struct CustomTrackTests {
        /// The seed's table, row by row: config, resolution, fps, optimized/balanced/high kbps.
        static let cameraTable: [(CustomCameraTrackConfig, Int, Int, Int, Int, Int, Int)] = [
            (.h90p_w160p, 160, 90, 30, 40, 90, 120),
            (.h180p_w320p, 320, 180, 30, 60, 120, 180),
            (.h360p_w640p, 640, 360, 30, 300, 450, 600),
            (.h540p_w960p, 960, 540, 30, 600, 900, 1200),
            (.h720p_w1280p, 1280, 720, 30, 1000, 1500, 2000),
            (.h1080p_w1920p, 1920, 1080, 30, 1500, 2200, 2700),
            (.h120p_w160p, 160, 120, 30, 40, 90, 120),
            (.h180p_w240p, 240, 180, 30, 90, 120, 180),
            (.h240p_w320p, 320, 240, 30, 100, 150, 200),
            (.h360p_w480p, 480, 360, 30, 270, 360, 540),
            (.h480p_w640p, 640, 480, 30, 350, 600, 900),
            (.h720p_w960p, 960, 720, 30, 900, 1200, 1600),
            (.h1080p_w1440p, 1440, 1080, 30, 1500, 2000, 2700),
        ]

        @Test func theCameraTableHasTheSeedsThirteenRows() {
            #expect(Set(Self.cameraTable.map(\.0)) == Set(CustomCameraTrackConfig.allCases))
            #expect(CustomCameraTrackConfig.allCases.count == 13)
        }

        @Test(arguments: cameraTable.indices)
        func eachCameraConfigSetsItsResolutionRateAndBitrates(_ row: Int) {
            let (config, width, height, fps, optimized, balanced, high) = Self.cameraTable[row]
            #expect(config.width == width && config.height == height && config.frameRate == fps, "\(config)")
            #expect(config.bitrate(for: .BANDWIDTH_OPTIMIZED) == optimized * 1000, "\(config)")
            #expect(config.bitrate(for: .BALANCED) == balanced * 1000, "\(config)")
            #expect(config.bitrate(for: .HIGH_QUALITY) == high * 1000, "\(config)")
        }

        @Test func theMicrophoneTable() {
            let table: [(CustomMicrophoneTrackConfig, Int, Int, Bool)] = [
                (.speech_low_quality, 1, 24, true), (.speech_standard, 1, 24, true), (.music_standard, 1, 40, false),
                (.standard_stereo, 2, 64, false), (.high_quality, 1, 128, false), (.high_quality_stereo, 2, 192, false),
            ]
            #expect(table.count == CustomMicrophoneTrackConfig.allCases.count)
            for (config, channels, kbps, processing) in table {
                #expect(config.channels == channels && config.bitrate == kbps * 1000 && config.processingByDefault == processing, "\(config)")
            }
        }

        @Test func theScreenShareTable() {
            let table: [(CustomScreenShareTrackConfig, Int, Int)] = [
                (.h360p_30fps, 30, 400), (.h480p_15fps, 15, 300), (.h480p_30fps, 30, 500), (.h720p_5fps, 5, 400),
                (.h720p_15fps, 15, 1000), (.h720p_30fps, 30, 1500), (.h1080p_15fps, 15, 1500), (.h1080p_30fps, 30, 2000),
            ]
            #expect(table.count == CustomScreenShareTrackConfig.allCases.count)
            for (config, fps, kbps) in table { #expect(config.frameRate == fps && config.bitrate == kbps * 1000, "\(config)") }
        }

        /// Left out: true (high-pass false); nil: the profile's; no NoiseConfig: all the profile's.
        @Test func noiseConfigFlagsFollowTheSeedsRule() {
            let all = AudioProcessing(noiseSuppression: true, echoCancellation: true, autoGainControl: true, highPassFilter: false)
            #expect(NoiseConfig.resolved(NoiseConfig(), for: .music_standard) == all)
            #expect(NoiseConfig.resolved(nil, for: .speech_standard) == all)
            #expect(NoiseConfig.resolved(nil, for: .music_standard)
                == AudioProcessing(noiseSuppression: false, echoCancellation: false, autoGainControl: false, highPassFilter: false))
            #expect(NoiseConfig.resolved(NoiseConfig(noiseSuppression: nil, echoCancellation: false, autoGainControl: nil, highPassFilter: nil),
                                         for: .speech_standard)
                == AudioProcessing(noiseSuppression: true, echoCancellation: false, autoGainControl: true, highPassFilter: false))
        }

        /// docs/SDK.md's simulcast rule: full, 1/2 and 1/4 of the config's size, each at the
        /// bitrate of the table's row of that size in the same mode, else the config's rate in
        /// proportion to the pixels; MAX_LAYER_2 drops the quarter.
        @Test func simulcastLayersTakeTheTablesRowOfTheirSize() {
            func layers(_ config: CustomCameraTrackConfig, _ count: Int, _ mode: BitrateMode) -> [String] {
                config.simulcastLayers(count, mode: mode).map { "\($0.rid) /\($0.scaleDown) \($0.bitrate / 1000)" }
            }
            #expect(layers(.h720p_w1280p, 3, .BALANCED) == ["q /4 120", "h /2 450", "f /1 1500"])
            #expect(layers(.h720p_w1280p, 2, .BALANCED) == ["h /2 450", "f /1 1500"])
            #expect(layers(.h720p_w1280p, 3, .HIGH_QUALITY) == ["q /4 180", "h /2 600", "f /1 2000"])
            #expect(layers(.h360p_w640p, 3, .BALANCED) == ["q /4 90", "h /2 120", "f /1 450"])
            #expect(layers(.h360p_w640p, 3, .BANDWIDTH_OPTIMIZED) == ["q /4 40", "h /2 60", "f /1 300"])
            #expect(layers(.h720p_w960p, 3, .BALANCED) == ["q /4 120", "h /2 360", "f /1 1200"], "480x360 and 240x180 have rows")
            // No 480x270 row: a sixteenth of 2200 kb/s.
            #expect(layers(.h1080p_w1920p, 3, .BALANCED) == ["q /4 137", "h /2 900", "f /1 2200"])
        }

        /// Which tracks are sent as simulcast: a VP8 camera with multiStream, with maxLayer's count.
        @Test func onlyAMultiStreamVP8CameraIsSimulcast() async throws {
            let three = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p, multiStream: true)
            #expect(Room.simulcastLayers(of: three).map(\.rid) == ["q", "h", "f"])
            let two = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p, multiStream: true, maxLayer: .MAX_LAYER_2)
            #expect(Room.simulcastLayers(of: two).map(\.rid) == ["h", "f"])
            let one = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p, multiStream: false, maxLayer: .MAX_LAYER_3)
            #expect(Room.simulcastLayers(of: one).isEmpty)
            let h264 = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p, multiStream: true, codec: .H264)
            #expect(Room.simulcastLayers(of: h264).isEmpty, "H.264 is sent as one layer")
            for track in [three, two, one, h264] { track.stop() }
        }

        /// The seed's example, as written.
        @Test func theSeedsCameraExampleMakesATrackWithItsSettings() async throws {
            let videoMediaTrack = try await VideoSDK.createCameraVideoTrack(
                encoderConfig: .h720p_w960p,
                facingMode: .front,
                multiStream: true,
                maxLayer: .MAX_LAYER_2, // Default: .MAX_LAYER_3
                bitrateMode: .HIGH_QUALITY, // Default: .BALANCED
                codec: .VP8 // Default: .VP8
            )
            defer { videoMediaTrack.stop() }
            #expect(videoMediaTrack.encoderConfig == .h720p_w960p && videoMediaTrack.maxLayer == .MAX_LAYER_2)
            #expect(videoMediaTrack.bitrateMode == .HIGH_QUALITY && videoMediaTrack.codec == .VP8 && videoMediaTrack.facingMode == .front)
            #expect(videoMediaTrack.cameraId == "revue-test-pattern" && videoMediaTrack.audioTrack == nil)
            let video = try #require(videoMediaTrack.videoTrack)
            #expect(video.width == 960 && video.height == 720 && video.frameRate == 30)
            // The camera is open: it makes pictures of that size, and they move.
            let first = video.frame(0), later = video.frame(15)
            #expect(first.width == 960 && first.height == 720 && first.y != later.y)
            #expect(!videoMediaTrack.isEnded)
        }

        @Test func theSeedsMicrophoneExampleMakesATrackWithItsSettings() async throws {
            let audioMediaTrack = try await VideoSDK.createMicrophoneAudioTrack(
                encoderConfig: .speech_standard,
                noiseConfig: NoiseConfig(
                    noiseSuppression: true,
                    echoCancellation: true,
                    autoGainControl: true,
                    highPassFilter: true
                )
            )
            defer { audioMediaTrack.stop() }
            #expect(audioMediaTrack.microphoneConfig == .speech_standard && audioMediaTrack.videoTrack == nil)
            #expect(audioMediaTrack.audioProcessing?.highPassFilter == true)
            let sound = try #require(audioMediaTrack.audioTrack).samples(from: 0, count: 960)
            #expect(sound.contains { abs($0) > 0.1 }, "the tone microphone is silent")
        }

        @Test func theSeedsScreenShareExampleHoldsOnlyTheSettings() {
            let shareTrack = VideoSDK.createScreenShareVideoTrack(
                encoderConfig: .h1080p_15fps,
                multiStream: false
            )
            #expect(shareTrack.screenShareConfig == .h1080p_15fps && shareTrack.videoTrack == nil && shareTrack.audioTrack == nil)
        }

        /// onEnded: once, with nil for stop(); a handler set after the end is called at once.
        @MainActor @Test func onEndedIsCalledOnceAndAtOnceWhenSetLate() async throws {
            let track = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p)
            let calls = Calls()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                track.onEnded = { error in
                    calls.values.append(error?.name ?? "stopped")
                    done.resume()
                }
                track.stop()
                track.stop()
            }
            #expect(track.isEnded)
            #expect(calls.values == ["stopped"])
            // Set after the end: called at once, once.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                track.onEnded = { error in
                    calls.values.append("late \(error?.name ?? "stopped")")
                    done.resume()
                }
            }
            #expect(calls.values == ["stopped", "late stopped"])
        }

        /// "you created a newer track for the same device": the older one ends.
        @Test func aNewerTrackForTheSameCameraEndsTheOlderOne() async throws {
            let older = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p)
            let newer = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p)
            defer { newer.stop() }
            #expect(older.isEnded && !newer.isEnded)
        }

        @Test func createCameraVideoTrackThrowsTheSeedsCodes() async throws {
            await #expect(throws: VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG) {
                _ = try await VideoSDK.createCameraVideoTrack(cameraId: "no-such-camera")
            }
            // H.264 is encoded (x264), so the track is made.
            let h264 = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p, codec: .H264)
            #expect(h264.codec == .H264 && !h264.isEnded)
            h264.stop()
            let missing = try TemporaryDirectory(prefix: "sdk-cameras").file("gone.y4m")
            let camera = try VideoSDK.addFileCamera(path: missing, label: "Gone")
            defer { VideoSDK.removeDevice(deviceId: camera.deviceId) }
            let error = await #expect(throws: VideoSDKError.self) { _ = try await VideoSDK.createCameraVideoTrack(cameraId: camera.deviceId) }
            #expect(error?.code == 3026, "\(String(describing: error))")
        }

        /// With no device listed (a machine without the synthetic ones, made here by emptying
        /// the lists; on Linux they are always there): 3021 and 3022, as the seed says.
        @Test func noCameraOrMicrophoneListedIs3021And3022() async throws {
            let listed = VideoSDK.state.with { ($0.cameras, $0.microphones) }
            VideoSDK.state.with {
                $0.cameras = []
                $0.microphones = $0.microphones.filter { $0.info.isSpeaker }
            }
            defer { VideoSDK.state.with { ($0.cameras, $0.microphones) = listed } }
            await #expect(throws: VideoSDKError.ERROR_CAMERA_NOT_FOUND) { _ = try await VideoSDK.createCameraVideoTrack() }
            // ALSA's capture devices are listed as they are found: a machine with one has a microphone.
            let alsa = ALSADevice.captureDevices()
            if alsa.isEmpty {
                await #expect(throws: VideoSDKError.ERROR_MICROPHONE_NOT_FOUND) { _ = try await VideoSDK.createMicrophoneAudioTrack() }
            } else {
                print("3022 not shown: this machine lists ALSA capture devices \(alsa.map(\.name))")
            }
        }

        @Test(arguments: [AuthorisationStatus.denied, .restricted, .notDetermined])
        func withoutCameraOrMicrophoneAccessTracksAreRefused(_ status: AuthorisationStatus) async throws {
            VideoSDK.setPermissionProvider(StaticPermissionProvider(video: status, audio: status))
            defer { VideoSDK.setPermissionProvider(StaticPermissionProvider()) }
            let camera = await #expect(throws: VideoSDKError.self) { _ = try await VideoSDK.createCameraVideoTrack() }
            #expect(camera?.code == 3017 && camera?.name == "ERROR_CAMERA_ACCESS_DENIED_OR_DISMISSED")
            let microphone = await #expect(throws: VideoSDKError.self) { _ = try await VideoSDK.createMicrophoneAudioTrack() }
            #expect(microphone?.code == 3018 && microphone?.name == "ERROR_MICROPHONE_ACCESS_DENIED_OR_DISMISSED")
        }

        @Test func createMicrophoneAudioTrackThrowsTheSeedsCodes() async throws {
            await #expect(throws: VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG) {
                _ = try await VideoSDK.createMicrophoneAudioTrack(microphoneId: "no-such-microphone")
            }
            // Speaker is an output: no microphone has that id.
            await #expect(throws: VideoSDKError.ERROR_INVALID_CUSTOM_TRACK_CONFIG) {
                _ = try await VideoSDK.createMicrophoneAudioTrack(microphoneId: "Speaker")
            }
            // A microphone that does not open within the 2 s: 3024.
            let missing = try TemporaryDirectory(prefix: "sdk-microphones").file("gone.wav")
            let microphone = try VideoSDK.addFileMicrophone(path: missing, label: "Gone")
            defer { VideoSDK.removeDevice(deviceId: microphone.deviceId) }
            let error = await #expect(throws: VideoSDKError.self) { _ = try await VideoSDK.createMicrophoneAudioTrack(microphoneId: microphone.deviceId) }
            #expect(error?.code == 3024 && error?.name == "ERROR_MICROPHONE_IN_USE" && error?.message.contains("gone.wav") == true,
                    "\(String(describing: error))")
        }

        /// Every parameter left out is the seeds' default: the camera at 720p, simulcast up to
        /// three layers, BALANCED, VP8; the speech profile; the 720p 15 fps share; 15 s of
        /// pre-call sampling.
        @Test func parametersLeftOutAreTheSeedsDefaults() async throws {
            let camera = try await VideoSDK.createCameraVideoTrack()
            defer { camera.stop() }
            #expect(camera.encoderConfig == .h720p_w1280p && camera.multiStream && camera.maxLayer == .MAX_LAYER_3)
            #expect(camera.bitrateMode == .BALANCED && camera.codec == .VP8 && camera.facingMode == .front)
            let microphone = try await VideoSDK.createMicrophoneAudioTrack()
            defer { microphone.stop() }
            #expect(microphone.microphoneConfig == .speech_standard && microphone.noiseConfig == nil)
            #expect(VideoSDK.createScreenShareVideoTrack().screenShareConfig == .h720p_15fps)
            #expect(PreCallTestOptions(token: "t").samplingDuration == 15_000)
        }

        /// A 64x36 15 fps y4m of grey frames, one per shade (YUV4MPEG2: a header line, then
        /// `FRAME` and the I420 planes of each).
        static func writeY4M(_ path: String, shades: [UInt8]) throws {
            var bytes = Array("YUV4MPEG2 W64 H36 F15:1 C420\n".utf8)
            for shade in shades {
                bytes += Array("FRAME\n".utf8) + [UInt8](repeating: shade, count: 64 * 36) + [UInt8](repeating: 128, count: 2 * 32 * 18)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }

        /// A file camera plays its y4m: the track's pictures are the file's.
        @Test func aFileCameraPlaysItsFile() async throws {
            let directory = try TemporaryDirectory(prefix: "sdk-cameras")
            let path = directory.file("grey.y4m")
            try Self.writeY4M(path, shades: [60, 200])
            let camera = try VideoSDK.addFileCamera(path: path, label: "Grey", facingMode: .back)
            defer { VideoSDK.removeDevice(deviceId: camera.deviceId) }
            #expect(VideoSDK.getCameras().contains(camera) && camera.facingMode == .back)
            let track = try await VideoSDK.createCameraVideoTrack(cameraId: camera.deviceId)
            defer { track.stop() }
            let video = try #require(track.videoTrack)
            #expect(video.width == 64 && video.height == 36 && video.frameRate == 15)
            #expect(video.frame(0).y.first == 60 && video.frame(1).y.first == 200 && video.frame(2).y.first == 60)
            #expect(VideoSDK.getSelectedVideoDevice() == camera)
        }

        /// `facingMode` picks the camera on that side, or the other side's when there is none
        /// (the seed): `.back` is the test pattern until a back camera is listed, then that one.
        @Test func facingModePicksTheCameraOnThatSideOrTheOther() async throws {
            let front = try await VideoSDK.createCameraVideoTrack(encoderConfig: .h90p_w160p, facingMode: .back, multiStream: false)
            #expect(front.cameraId == VideoSDK.getCameras().first { $0.facingMode == .front }?.deviceId && front.facingMode == .front,
                    "\(String(describing: front.cameraId))")
            front.stop()
            let directory = try TemporaryDirectory(prefix: "sdk-facing-mode")
            let path = directory.file("back.y4m")
            try Self.writeY4M(path, shades: [120])
            let back = try VideoSDK.addFileCamera(path: path, label: "Back", facingMode: .back)
            defer { VideoSDK.removeDevice(deviceId: back.deviceId) }
            let chosen = try await VideoSDK.createCameraVideoTrack(facingMode: .back, multiStream: false)
            defer { chosen.stop() }
            #expect(chosen.cameraId == back.deviceId && chosen.facingMode == .back && chosen.videoTrack?.width == 64,
                    "\(String(describing: chosen.cameraId))")
        }

        /// Any other video file goes through libavformat: an MP4 of H.264 plays at its size and 30 fps.
        @Test func aFileCameraPlaysAnMP4() async throws {
            let directory = try TemporaryDirectory(prefix: "sdk-cameras")
            let path = directory.file("green.mp4")
            let made = try Tool.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x20B040:s=320x180:r=25:d=0.4",
                                               "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
            #expect(made.status == 0, "\(made.standardError)")
            let camera = try VideoSDK.addFileCamera(path: path, label: "Green")
            defer { VideoSDK.removeDevice(deviceId: camera.deviceId) }
            let track = try await VideoSDK.createCameraVideoTrack(cameraId: camera.deviceId)
            defer { track.stop() }
            let video = try #require(track.videoTrack)
            #expect(video.width == 320 && video.height == 180 && video.frameRate == 30)
            #expect(video.frame(40).pixel(x: 160, y: 90).distance(to: YUVColor(red: 0x20, green: 0xB0, blue: 0x40)) < 12)
        }
    }
}

/// What a test saw, appended on the main actor.
@MainActor final class Calls {
    var values: [String] = []
}
