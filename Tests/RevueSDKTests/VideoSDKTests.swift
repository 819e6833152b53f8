import Log
@testable import RevueSDK
import Testing

/// The VideoSDK class seed (001) without a server: createRoom's parameter checks, permissions
/// through the provider, the devices, the log level; and the listener's defaults.
extension RevueSDKTests {
    @Suite struct VideoSDKTests {
        @Test func createRoomAsTheSeedsExampleMakesARoomNotYetJoined() async throws {
            let room = try VideoSDK.createRoom(
                roomId: "abc-1234-xyz",
                token: "<YOUR_TOKEN>",
                participantName: "John Doe",
                micEnabled: true,
                camEnabled: true
            )
            #expect(await room.id == "abc-1234-xyz")
            #expect(await room.state == .NEW)
            #expect(await room.localParticipant == nil)
        }

        @Test func createRoomRefusesAnEmptyRoomIdOrToken() {
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { _ = try VideoSDK.createRoom(roomId: "", token: "t") }
            let error = #expect(throws: VideoSDKError.self) { _ = try VideoSDK.createRoom(roomId: "room", token: "") }
            #expect(error?.code == 3073 && error?.name == "ERROR_INVALID_PARAMETER" && error?.message == "token is empty")
        }

        @Test func permissionsAreAuthorizedByDefaultAndComeFromTheProvider() {
            #expect(VideoSDK.getAudioPermissionStatus() == .authorized)
            #expect(VideoSDK.getVideoPermissionStatus() == .authorized)
            let provider = StaticPermissionProvider(video: .notDetermined, audio: .denied)
            VideoSDK.setPermissionProvider(provider)
            defer { VideoSDK.setPermissionProvider(StaticPermissionProvider()) }
            #expect(VideoSDK.getVideoPermissionStatus() == .notDetermined && VideoSDK.getAudioPermissionStatus() == .denied)
            // The seed's switch: ask while not determined; a denied status is not asked again.
            switch VideoSDK.getVideoPermissionStatus() {
            case .notDetermined:
                VideoSDK.getVideoPermission()
            default:
                break
            }
            VideoSDK.getAudioPermission()
            #expect(VideoSDK.getVideoPermissionStatus() == .authorized)
            #expect(VideoSDK.getAudioPermissionStatus() == .denied)
            provider.set(.restricted, for: .video)
            VideoSDK.getVideoPermission()
            #expect(VideoSDK.getVideoPermissionStatus() == .restricted)
        }

        @Test func theSyntheticDevicesAreAlwaysListed() {
            let cameras = VideoSDK.getCameras()
            #expect(cameras.contains { $0.deviceId == "revue-test-pattern" && $0.facingMode == .front && $0.kind == .video })
            let mics = VideoSDK.getMics()
            // The seed's order: Speaker first, then the microphones.
            #expect(mics.first?.label == "Speaker" && mics.first?.deviceId == "Speaker")
            #expect(mics.contains { $0.deviceId == "revue-tone" && $0.kind == .audio })
            let devices = VideoSDK.getDevices()
            #expect(devices == cameras + mics)
            // The seed's example tells the kinds apart by casting.
            var seen: [String] = []
            for device in VideoSDK.getDevices() {
                if let camera = device as? CameraDeviceInfo {
                    seen.append("Camera: \(camera.label)")
                } else {
                    seen.append("Audio device: \(device.label)")
                }
            }
            #expect(seen.first == "Camera: Test Pattern" && seen.contains("Audio device: Speaker"))
            #expect(VideoSDK.getSelectedVideoDevice() != nil)
            #expect(VideoSDK.getSelectedAudioDevice()?.isSpeaker == false)
        }

        @Test func fileDevicesAreAddedOnceAndRemoved() throws {
            let camera = try VideoSDK.addFileCamera(path: "/tmp/sdk-test-camera.y4m")
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try VideoSDK.addFileCamera(path: "/tmp/sdk-test-camera.y4m") }
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try VideoSDK.addFileCamera(path: "") }
            let mic = try VideoSDK.addFileMicrophone(path: "/tmp/sdk-test-mic.wav", label: "Clip")
            #expect(VideoSDK.getMics().last == mic && mic.label == "Clip")
            VideoSDK.removeDevice(deviceId: camera.deviceId)
            VideoSDK.removeDevice(deviceId: mic.deviceId)
            #expect(!VideoSDK.getCameras().contains(camera) && !VideoSDK.getMics().contains(mic))
        }

        /// The seed's E2EE calls: setKeyProvider with a shared key, getKeyProvider, removeKeyProvider,
        /// and setParticipantKey (3073 without a provider; set, changed and removed in the provider).
        @Test func theKeyProviderCallsAsTheSeedsExamplesMakeThem() throws {
            defer { VideoSDK.removeKeyProvider() }
            #expect(VideoSDK.getKeyProvider() == nil)
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try VideoSDK.setParticipantKey("<PARTICIPANT_ID>", key: "<NEW_KEY>") }
            let keyProvider = BaseKeyProvider()
            try keyProvider.setSharedKey("<YOUR_SHARED_KEY>")
            VideoSDK.setKeyProvider(keyProvider)
            let e2eeConfigured = VideoSDK.getKeyProvider() != nil
            #expect(e2eeConfigured && keyProvider.sharedKey == "<YOUR_SHARED_KEY>")
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try keyProvider.setSharedKey("") }

            try VideoSDK.setParticipantKey("<PARTICIPANT_ID>", key: "<NEW_KEY>")
            #expect(keyProvider.participantKey("<PARTICIPANT_ID>") == "<NEW_KEY>")
            // Participant keys are not used while a shared key is set.
            #expect(keyProvider.keys.key(for: "<PARTICIPANT_ID>") == "<YOUR_SHARED_KEY>")
            keyProvider.removeSharedKey()
            #expect(keyProvider.keys.key(for: "<PARTICIPANT_ID>") == "<NEW_KEY>")
            try VideoSDK.setParticipantKey("<PARTICIPANT_ID>", key: nil)
            #expect(keyProvider.participantKey("<PARTICIPANT_ID>") == nil && keyProvider.keys.isEmpty)
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try VideoSDK.setParticipantKey("", key: "k") }
            #expect(throws: VideoSDKError.ERROR_INVALID_PARAMETER) { try VideoSDK.setParticipantKey("<PARTICIPANT_ID>", key: "") }

            VideoSDK.removeKeyProvider()
            #expect(VideoSDK.getKeyProvider() == nil)
        }

        @Test func theLogLevelIsInfoUntilSetAndSetsRevuesLogger() {
            #expect(VideoSDK.getLogLevel() == .INFO)
            VideoSDK.setLogLevel(level: .DEBUG)
            #expect(VideoSDK.getLogLevel() == .DEBUG && LogOutput.shared.configuration.level == .debug)
            VideoSDK.setLogLevel(level: .NONE)
            #expect(!LogOutput.shared.configuration.enabled)
            VideoSDK.setLogLevel()
            #expect(VideoSDK.getLogLevel() == .INFO && LogOutput.shared.configuration.level == .info && LogOutput.shared.configuration.enabled)
        }

        /// Every listener method has a default: a listener that implements none compiles and
        /// takes every event.
        @MainActor @Test func aListenerImplementsOnlyWhatItNeeds() {
            final class OnlyJoined: RoomEventListener {
                var joined = 0
                func onRoomJoined() { joined += 1 }
            }
            let listener = OnlyJoined()
            let any: RoomEventListener = listener
            any.onRoomJoined()
            any.onRoomStateChanged(state: .CONNECTED)
            any.onError(error: .ERROR_INVALID_PARAMETER)
            any.onRecordingStateChanged(state: .RECORDING_STARTED)
            any.onEntryRequested(participantId: "guest", name: "Guest", allow: {}, deny: {})
            #expect(listener.joined == 1)
        }

        /// The room holds its listeners weakly.
        @MainActor @Test func theRoomHoldsListenersWeakly() throws {
            final class Listener: RoomEventListener {}
            let room = try VideoSDK.createRoom(roomId: "room", token: "token")
            weak var gone: Listener?
            do {
                let listener = Listener()
                gone = listener
                room.addEventListener(listener)
            }
            #expect(gone == nil)
            let kept = Listener()
            room.addEventListener(kept)
            room.removeEventListener(kept)
            room.addEventListener(kept)
            room.removeAllEventListeners()
        }
    }
}
