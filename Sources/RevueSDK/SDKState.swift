import Foundation
import Playout
import Synchronization

/// What `VideoSDK`'s static calls share: the permission provider, the devices, the selected
/// ones, the tracks that hold a device open, the log level and the server. One per process, as
/// on iOS; every field under one lock.
final class SDKState: Sendable {
    struct Fields {
        var permissions: any PermissionProvider = StaticPermissionProvider()
        var cameras: [CameraDevice] = [.testPattern]
        var microphones: [MicrophoneDevice] = [.speaker, .tone]
        var selectedCameraID: String? = CameraDevice.testPatternID
        var selectedMicrophoneID: String? = MicrophoneDevice.toneID
        /// The newest track of each device: a newer one ends it (the seed's "you created a
        /// newer track for the same device").
        var openTracks: [String: WeakTrack] = [:]
        var logLevel: LogLevel = .INFO
        /// `setKeyProvider`'s: end-to-end encryption for the next join.
        var keyProvider: BaseKeyProvider?
        /// Rooms joined or joining now, and the pre-call test running, if one is.
        var roomsIn = 0
        var preCallTest: PreCallTest?
        var signalingURL: String = ProcessInfo.processInfo.environment["REVUE_SIGNALING_URL"] ?? "ws://127.0.0.1:8080/v2/rtc"
        /// Where `Speaker` plays the rooms' sound (ALSA's default device unless the app says);
        /// nil: nowhere.
        var speakerOutput: SpeakerPlayout.Output? = SpeakerPlayout.Output()
    }

    struct WeakTrack {
        weak var track: CustomStreamTrack?
    }

    static let shared = SDKState()
    private let fields = Mutex(Fields())

    func with<T>(_ body: (inout Fields) -> T) -> T {
        fields.withLock { body(&$0) }
    }

    /// `with`, for a body that may refuse (a device listed twice).
    func modify(_ body: (inout Fields) throws(VideoSDKError) -> Void) throws(VideoSDKError) {
        let refusal: VideoSDKError? = fields.withLock { fields in
            do throws(VideoSDKError) {
                try body(&fields)
                return nil
            } catch {
                return error
            }
        }
        if let refusal { throw refusal }
    }

    /// Records `track` as the one holding `deviceID` open; the track it replaces, to be ended.
    func open(_ track: CustomStreamTrack, device deviceID: String) -> CustomStreamTrack? {
        with { fields in
            let previous = fields.openTracks[deviceID]?.track
            fields.openTracks[deviceID] = WeakTrack(track: track)
            return previous === track ? nil : previous
        }
    }
}
