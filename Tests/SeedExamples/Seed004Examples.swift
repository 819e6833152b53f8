import Foundation
import RevueSDK

/// The Swift examples of seed 004 (The Room class), each as the seed prints it, in a method of its
/// own: `room` and `self` (a `RoomEventListener`) are what the examples assume their app has.
/// Written by `scripts/seed-examples` from `../shared/seeds/`; the examples left out, and why,
/// are in `Tests/SeedExamples/README.md`.
@MainActor final class Seed004Examples: RoomEventListener {
    var room: Room?

    /// `join`, line 51 of the seed.
    func joinExample() {
        Task {
            do {
                try await room?.join()
            } catch {
                print("Failed to join: \(error)")
            }
        }
    }

    /// `leave`, line 81 of the seed.
    func leaveExample() {
        Task {
            do {
                try await room?.leave()
            } catch {
                print("Failed to leave: \(error)")
            }
        }
    }

    /// `end`, line 109 of the seed.
    func endExample() {
        Task {
            do {
                try await room?.end()
            } catch {
                print("Failed to end the room: \(error)")
            }
        }
    }

    /// `enableCam`, line 147 of the seed.
    func enableCamExample() {
        Task {
            do {
                try await room?.enableCam()
            } catch {
                print("Failed to enable camera: \(error)")
            }
        }
    }

    /// `disableCam`, line 172 of the seed.
    func disableCamExample() {
        Task {
            do {
                try await room?.disableCam()
            } catch {
                print("Failed to disable camera: \(error)")
            }
        }
    }

    /// `changeCam`, line 217 of the seed.
    func changeCamExample() {
        Task {
            do {
                // No argument: the next camera, for example front to back
                try await room?.changeCam()

                // Or pick a camera by its deviceId
                let cameras = VideoSDK.getCameras()
                try await room?.changeCam(deviceId: cameras.last?.deviceId)
            } catch {
                print("Failed to change camera: \(error)")
            }
        }
    }

    /// `unmuteMic`, line 260 of the seed.
    func unmuteMicExample() {
        Task {
            do {
                try await room?.unmuteMic()
            } catch {
                print("Failed to unmute mic: \(error)")
            }
        }
    }

    /// `muteMic`, line 285 of the seed.
    func muteMicExample() {
        Task {
            do {
                try await room?.muteMic()
            } catch {
                print("Failed to mute mic: \(error)")
            }
        }
    }

    /// `startRecording`, line 339 of the seed.
    func startRecordingExample() {
        let webhookUrl = "https://webhook.your-api-server.com"

        let awsDirPath = "/room-recordings/"

        let config: RecordingConfig = RecordingConfig(
            layout: ConfigLayout(
                type: .GRID,
                priority: .PIN,
                gridSize: 4
            ),
            theme: .DARK,
            mode: .VIDEO_AND_AUDIO,
            quality: .MED,
            orientation: .landscape
        )

        let transcription: PostTranscriptionConfig = PostTranscriptionConfig(
            enabled: true,
            summary: SummaryConfig(
                enabled: true,
                prompt: "Write summary in sections like Title, Agenda, Speakers, Action Items, Outlines, Notes and Summary"
            )
        )

        Task {
            do {
                try await room?.startRecording(webhookUrl: webhookUrl, awsDirPath: awsDirPath, config: config, transcription: transcription)
            } catch {
                print("Failed to start recording: \(error)")
            }
        }
    }

    /// `stopRecording`, line 388 of the seed.
    func stopRecordingExample() {
        Task {
            do {
                try await room?.stopRecording()
            } catch {
                print("Failed to stop recording: \(error)")
            }
        }
    }

    /// `startLivestream`, line 428 of the seed.
    func startLivestreamExample() {
        let outputs = [
            LivestreamOutput(url: "rtmp://a.rtmp.youtube.com/live2", streamKey: "<STREAM_KEY>")
        ]

        Task {
            do {
                try await room?.startLivestream(outputs: outputs)
            } catch {
                print("Failed to start livestream: \(error)")
            }
        }
    }

    /// `stopLivestream`, line 456 of the seed.
    func stopLivestreamExample() {
        Task {
            do {
                try await room?.stopLivestream()
            } catch {
                print("Failed to stop livestream: \(error)")
            }
        }
    }

    /// `startHLS`, line 513 of the seed.
    func startHLSExample() {
        let config: HLSConfig = HLSConfig(
            layout: ConfigLayout(
                type: .GRID,
                priority: .SPEAKER,
                gridSize: 4
            ),
            theme: .DARK,
            mode: .VIDEO_AND_AUDIO,
            quality: .HIGH,
            orientation: .portrait
        )

        let transcription: PostTranscriptionConfig = PostTranscriptionConfig(
            enabled: true,
            summary: SummaryConfig(
                enabled: true,
                prompt: "Write summary in sections like Title, Agenda, Speakers, Action Items, Outlines, Notes and Summary"
            )
        )

        Task {
            do {
                try await room?.startHLS(config: config, transcription: transcription)
            } catch {
                print("Failed to start HLS: \(error)")
            }
        }
    }

    /// `stopHLS`, line 557 of the seed.
    func stopHLSExample() {
        Task {
            do {
                try await room?.stopHLS()
            } catch {
                print("Failed to stop HLS: \(error)")
            }
        }
    }

    /// `startTranscription`, line 602 of the seed.
    func startTranscriptionExample() {
        let config = TranscriptionConfig(
            webhookURL: "YOUR_WEBHOOK_URL",
            summary: SummaryConfig(
                enabled: true,
                prompt: "Write summary in sections like Title, Agenda, Speakers, Action Items, Outlines, Notes and Summary"
            )
        )

        Task {
            do {
                try await room?.startTranscription(config: config)
            } catch {
                print("Failed to start transcription: \(error)")
            }
        }
    }

    /// `stopTranscription`, line 633 of the seed.
    func stopTranscriptionExample() {
        Task {
            do {
                try await room?.stopTranscription()
            } catch {
                print("Failed to stop transcription: \(error)")
            }
        }
    }

    /// `startTranslation`, line 661 of the seed.
    func startTranslationExample() {
        Task {
            do {
                try await room?.startTranslation()
            } catch {
                print("Failed to start translation: \(error)")
            }
        }
    }

    /// `stopTranslation`, line 687 of the seed.
    func stopTranslationExample() {
        Task {
            do {
                try await room?.stopTranslation()
            } catch {
                print("Failed to stop translation: \(error)")
            }
        }
    }

    /// `changeTranslationLanguage`, line 717 of the seed.
    func changeTranslationLanguageExample() {
        Task {
            do {
                try await room?.changeTranslationLanguage("<LANGUAGE_CODE>")
            } catch {
                print("Failed to change translation language: \(error)")
            }
        }
    }

    /// `changeMode`, line 759 of the seed.
    func changeModeExample() {
        Task {
            do {
                try await room?.changeMode(.SIGNALLING_ONLY)
            } catch {
                print("Failed to change mode: \(error)")
            }
        }
    }

    /// `enableScreenShare`, line 804 of the seed.
    func enableScreenShareExample() {
        Task {
            do {
                try await room?.enableScreenShare()
                // Or choose a profile: try await room?.enableScreenShare(.h1080p_15fps)
            } catch {
                print("Failed to enable screen share: \(error)")
            }
        }
    }

    /// `disableScreenShare`, line 832 of the seed.
    func disableScreenShareExample() {
        Task {
            do {
                try await room?.disableScreenShare()
            } catch {
                print("Failed to disable screen share: \(error)")
            }
        }
    }

    /// `changeMic`, line 874 of the seed.
    func changeMicExample() {
        let mics = VideoSDK.getMics()

        Task {
            do {
                try await room?.changeMic(deviceId: mics.last?.deviceId)
            } catch {
                print("Failed to change mic: \(error)")
            }
        }
    }

    /// `setAudioDevice`, line 905 of the seed.
    func setAudioDeviceExample() {
        if let speaker = VideoSDK.getMics().first(where: { $0.deviceId == "Speaker" }) {
            do {
                try room?.setAudioDevice(speaker)
            } catch {
                print("Failed to set audio device: \(error)")
            }
        }
    }

    /// `setAudioDeviceChangeListener`, line 931 of the seed.
    func setAudioDeviceChangeListenerExample() {
        room?.setAudioDeviceChangeListener { selected, available in
            print("Selected: \(selected?.label ?? "none"), available: \(available.map { $0.label })")
        }
    }

    /// `send`, line 965 of the seed.
    func sendExample() {
        Task {
            do {
                try await room?.send("Hello everyone")
            } catch {
                print("Failed to send message: \(error)")
            }
        }
    }

    /// `uploadBase64File`, line 1003 of the seed.
    func uploadBase64FileExample() {
        let base64Data: String = "<Your-base64-File>"
        let token: String = "<Your-Token>"
        let fileName: String = "name.jpeg" // Provide file name with extension

        Task {
            do {
                let url = try await room?.uploadBase64File(base64Data: base64Data, token: token, fileName: fileName)
                print("url: \(url ?? "")")
            } catch {
                print("Failed to upload file: \(error)")
            }
        }
    }

    /// `fetchBase64File`, line 1043 of the seed.
    func fetchBase64FileExample() {
        let url: String = "<Your FileUrl>" // Provide fileUrl which is returned by uploadBase64File()
        let token: String = "<Your-Token>"

        Task {
            do {
                let base64Data = try await room?.fetchBase64File(url: url, token: token)
                print("base64: \(base64Data ?? "")")
            } catch {
                print("Failed to fetch file: \(error)")
            }
        }
    }

    /// `setVideoProcessor`, line 1074 of the seed.
    func setVideoProcessorExample() {
        let backgroundSource = URL(string: "https://cdn.videosdk.live/virtual-background/cloud.jpeg")!
        let processor = VideoSDKBackgroundProcessor(backgroundSource: backgroundSource)
        room?.setVideoProcessor(processor: processor)
    }

    /// `removeVideoProcessor`, line 1091 of the seed.
    func removeVideoProcessorExample() {
        room?.removeVideoProcessor()
    }

    /// `startWhiteboard`, line 1110 of the seed.
    func startWhiteboardExample() {
        Task {
            do {
                try await room?.startWhiteboard()
            } catch {
                print("Failed to start whiteboard: \(error)")
            }
        }
    }

    /// `stopWhiteboard`, line 1135 of the seed.
    func stopWhiteboardExample() {
        Task {
            do {
                try await room?.stopWhiteboard()
            } catch {
                print("Failed to stop whiteboard: \(error)")
            }
        }
    }

    /// `pauseAllStreams`, line 1164 of the seed.
    func pauseAllStreamsExample() {
        Task {
            do {
                try await room?.pauseAllStreams(.VIDEO)
            } catch {
                print("Failed to pause streams: \(error)")
            }
        }
    }

    /// `resumeAllStreams`, line 1193 of the seed.
    func resumeAllStreamsExample() {
        Task {
            do {
                try await room?.resumeAllStreams(.VIDEO)
            } catch {
                print("Failed to resume streams: \(error)")
            }
        }
    }

    /// `enableAdaptiveSubscription`, line 1218 of the seed.
    func enableAdaptiveSubscriptionExample() {
        Task {
            do {
                try await room?.enableAdaptiveSubscription()
            } catch {
                print("Failed to enable adaptive subscription: \(error)")
            }
        }
    }

    /// `disableAdaptiveSubscription`, line 1243 of the seed.
    func disableAdaptiveSubscriptionExample() {
        Task {
            do {
                try await room?.disableAdaptiveSubscription()
            } catch {
                print("Failed to disable adaptive subscription: \(error)")
            }
        }
    }

    /// `setWebcamQuality`, line 1272 of the seed.
    func setWebcamQualityExample() {
        Task {
            do {
                try await room?.setWebcamQuality(.low)
            } catch {
                print("Failed to set webcam quality: \(error)")
            }
        }
    }

    /// `getAppliedVideoConfig`, line 1293 of the seed.
    func getAppliedVideoConfigExample() {
        if let config = room?.getAppliedVideoConfig() {
            print("Camera config: \(config)")
        }
    }

    /// `getActivePresenterId`, line 1309 of the seed.
    func getActivePresenterIdExample() {
        if let presenterId = room?.getActivePresenterId() {
            print("Presenter: \(presenterId)")
        }
    }

    /// `getActiveSpeakerId`, line 1325 of the seed.
    func getActiveSpeakerIdExample() {
        if let speakerId = room?.getActiveSpeakerId() {
            print("Active speaker: \(speakerId)")
        }
    }

    /// `requestMediaRelay`, line 1362 of the seed.
    func requestMediaRelayExample() {
        Task {
            do {
                try await room?.requestMediaRelay(destinationRoomId: "<DESTINATION-ROOM-ID>", token: "<AUTH-TOKEN>", kinds: [.VIDEO, .AUDIO])
            } catch {
                print("Failed to request media relay: \(error)")
            }
        }
    }

    /// `stopMediaRelay`, line 1394 of the seed.
    func stopMediaRelayExample() {
        Task {
            do {
                try await room?.stopMediaRelay(destinationRoomId: "<DESTINATION-ROOM-ID>")
            } catch {
                print("Failed to stop media relay: \(error)")
            }
        }
    }

    /// `switchTo`, line 1432 of the seed.
    func switchToExample() {
        Task {
            do {
                try await room?.switchTo(roomId: "<NEW-ROOM-ID>", token: "<AUTH-TOKEN>")
            } catch {
                print("Failed to switch room: \(error)")
            }
        }
    }

    /// `respondEntry`, line 1464 of the seed.
    func respondEntryExample() {
        Task {
            do {
                try await room?.respondEntry(participantId: "<PARTICIPANT-ID>", decision: .ALLOWED)
            } catch {
                print("Failed to respond to entry request: \(error)")
            }
        }
    }

    /// `addEventListener`, line 1489 of the seed.
    func addEventListenerExample() {
        room?.addEventListener(self)
    }

    /// `removeEventListener`, line 1505 of the seed.
    func removeEventListenerExample() {
        room?.removeEventListener(self)
    }

    /// `removeAllEventListeners`, line 1519 of the seed.
    func removeAllEventListenersExample() {
        room?.removeAllEventListeners()
    }
}
