import Foundation
import RevueSDK

/// The Swift examples of seed 000 (Custom tracks), each as the seed prints it, in a method of its
/// own: `room` and `self` (a `RoomEventListener`) are what the examples assume their app has.
/// Written by `scripts/seed-examples` from `../shared/seeds/`; the examples left out, and why,
/// are in `Tests/SeedExamples/README.md`.
@MainActor final class Seed000Examples: RoomEventListener {
    var room: Room?

    /// `createCameraVideoTrack`, line 91 of the seed.
    func createCameraVideoTrackExample() {
        Task {
            do {
                let videoMediaTrack = try await VideoSDK.createCameraVideoTrack(
                    encoderConfig: .h720p_w960p,
                    facingMode: .front,
                    multiStream: true,
                    maxLayer: .MAX_LAYER_2, // Default: .MAX_LAYER_3
                    bitrateMode: .HIGH_QUALITY, // Default: .BALANCED
                    codec: .VP8 // Default: .VP8
                )
            } catch {
                print("Failed to create custom video track: \(error)")
            }
        }
    }

    /// `createMicrophoneAudioTrack`, line 169 of the seed.
    func createMicrophoneAudioTrackExample() {
        Task {
            do {
                let audioMediaTrack = try await VideoSDK.createMicrophoneAudioTrack(
                    encoderConfig: .speech_standard,
                    noiseConfig: NoiseConfig(
                        noiseSuppression: true,
                        echoCancellation: true,
                        autoGainControl: true,
                        highPassFilter: true
                    )
                )
            } catch {
                print("Failed to create custom audio track: \(error)")
            }
        }
    }

    /// `createScreenShareVideoTrack`, line 224 of the seed.
    func createScreenShareVideoTrackExample() {
        let shareTrack = VideoSDK.createScreenShareVideoTrack(
            encoderConfig: .h1080p_15fps,
            multiStream: false
        )

        Task {
            do {
                try await room?.enableScreenShare(shareTrack)
            } catch {
                print("Failed to enable screen share: \(error)")
            }
        }
    }
}
