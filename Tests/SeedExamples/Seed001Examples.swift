import Foundation
import RevueSDK

/// The Swift examples of seed 001 (The VideoSDK class), each as the seed prints it, in a method of its
/// own: `room` and `self` (a `RoomEventListener`) are what the examples assume their app has.
/// Written by `scripts/seed-examples` from `../shared/seeds/`; the examples left out, and why,
/// are in `Tests/SeedExamples/README.md`.
@MainActor final class Seed001Examples: RoomEventListener {
    var room: Room?

    /// `createRoom`, line 21 of the seed.
    func createRoomExample() {
        do {
            room = try VideoSDK.createRoom(
                roomId: "abc-1234-xyz",
                token: "<YOUR_TOKEN>",
                participantName: "John Doe",
                micEnabled: true,
                camEnabled: true
            )
        } catch {
            print("Room setup failed: \(error)")
        }
    }

    /// `getAudioPermissionStatus`, line 47 of the seed.
    func getAudioPermissionStatusExample() {
        if VideoSDK.getAudioPermissionStatus() == .authorized {
            print("Microphone access is allowed")
        }
    }

    /// `getVideoPermissionStatus`, line 65 of the seed.
    func getVideoPermissionStatusExample() {
        if VideoSDK.getVideoPermissionStatus() == .authorized {
            print("Camera access is allowed")
        }
    }

    /// `getAudioPermission`, line 87 of the seed.
    func getAudioPermissionExample() {
        VideoSDK.getAudioPermission()
    }

    /// `getCameras`, line 130 of the seed.
    func getCamerasExample() {
        let cameras = VideoSDK.getCameras()
        for camera in cameras {
            print(camera.label, camera.deviceId, camera.facingMode?.rawValue ?? "external")
        }
        // Sample output:
        // Front Camera com.apple.avfoundation.avcapturedevice.built-in_video:1 front
        // Back Camera com.apple.avfoundation.avcapturedevice.built-in_video:0 back
    }

    /// `getMics`, line 149 of the seed.
    func getMicsExample() {
        let mics = VideoSDK.getMics()
        print(mics.map(\.label))
        // Sample output: ["Speaker", "iPhone Microphone"]
    }

    /// `getDevices`, line 164 of the seed.
    func getDevicesExample() {
        for device in VideoSDK.getDevices() {
            if let camera = device as? CameraDeviceInfo {
                print("Camera: \(camera.label)")
            } else {
                print("Audio device: \(device.label)")
            }
        }
    }

    /// `getSelectedVideoDevice`, line 183 of the seed.
    func getSelectedVideoDeviceExample() {
        if let camera = VideoSDK.getSelectedVideoDevice() {
            print("Current camera: \(camera.label)")
        }
    }

    /// `getSelectedAudioDevice`, line 198 of the seed.
    func getSelectedAudioDeviceExample() {
        if let device = VideoSDK.getSelectedAudioDevice() {
            print("Current audio device: \(device.label)")
        }
    }

    /// `createCameraVideoTrack`, line 236 of the seed.
    func createCameraVideoTrackExample() {
        Task {
            do {
                let cameraTrack = try await VideoSDK.createCameraVideoTrack(
                    encoderConfig: .h720p_w1280p,
                    facingMode: .front,
                    multiStream: true
                )
                try await room?.enableCam(customCameraTrack: cameraTrack)
            } catch let error as VideoSDKError {
                print("Could not turn on the camera: \(error.message)")
            } catch {
                print("Could not turn on the camera: \(error)")
            }
        }
    }

    /// `createMicrophoneAudioTrack`, line 278 of the seed.
    func createMicrophoneAudioTrackExample() {
        Task {
            do {
                let microphoneTrack = try await VideoSDK.createMicrophoneAudioTrack(
                    encoderConfig: .speech_standard,
                    noiseConfig: NoiseConfig(
                        noiseSuppression: true,
                        echoCancellation: true,
                        autoGainControl: true,
                        highPassFilter: false
                    )
                )
                try await room?.unmuteMic(customMicrophoneTrack: microphoneTrack)
            } catch {
                print("Could not turn on the microphone: \(error)")
            }
        }
    }

    /// `createScreenShareVideoTrack`, line 312 of the seed.
    func createScreenShareVideoTrackExample() {
        let screenShareTrack = VideoSDK.createScreenShareVideoTrack(encoderConfig: .h1080p_15fps)

        Task {
            do {
                try await room?.enableScreenShare(screenShareTrack)
            } catch {
                print("Could not start screen share: \(error)")
            }
        }
    }

    /// `setKeyProvider`, line 339 of the seed.
    func setKeyProviderExample() {
        do {
            let keyProvider = BaseKeyProvider()
            try keyProvider.setSharedKey("<YOUR_SHARED_KEY>")
            VideoSDK.setKeyProvider(keyProvider)
        } catch {
            print("Could not set the encryption key: \(error)")
        }
    }

    /// `removeKeyProvider`, line 357 of the seed.
    func removeKeyProviderExample() {
        VideoSDK.removeKeyProvider()
    }

    /// `getKeyProvider`, line 367 of the seed.
    func getKeyProviderExample() {
        let e2eeConfigured = VideoSDK.getKeyProvider() != nil
    }

    /// `setParticipantKey`, line 389 of the seed.
    func setParticipantKeyExample() {
        do {
            try VideoSDK.setParticipantKey("<PARTICIPANT_ID>", key: "<NEW_KEY>")
        } catch {
            print("Could not set the participant key: \(error)")
        }
    }

    /// `runPreCallTest`, line 420 of the seed.
    func runPreCallTestExample() {
        Task {
            do {
                let result = try await VideoSDK.runPreCallTest(
                    PreCallTestOptions(token: "<YOUR_TOKEN>", samplingDuration: 15_000)
                ) { stats in
                    print("Upload quality: \(stats.uplink.quality)")
                }
                print("Download quality: \(result.networkQuality?.downlink.quality ?? 0)")
            } catch let error as PreCallTestError {
                print("Pre-call test failed: \(error.code) \(error.message)")
            } catch {
                print("Pre-call test failed: \(error)")
            }
        }
    }

    /// `stopPreCallTest`, line 446 of the seed.
    func stopPreCallTestExample() {
        Task {
            await VideoSDK.stopPreCallTest()
        }
    }

    /// `setLogLevel`, line 484 of the seed.
    func setLogLevelExample() {
        VideoSDK.setLogLevel(level: .DEBUG)
    }

    /// `getLogLevel`, line 496 of the seed.
    func getLogLevelExample() {
        if VideoSDK.getLogLevel() == .DEBUG {
            print("Debug logs are on")
        }
    }
}
