import Foundation
import Playout
import JobSpec
import Capture
import Publisher
import RoomSession
import Signaling

/// A room, as the Room class seed describes it: made by `VideoSDK.createRoom`, joined with
/// `join()`, left with `leave()` or ended for everyone with `end()`. It is the signalling
/// protocol (docs/SIGNALING.md) and Revue's publisher (`RoomPublisher`: VP8 and Opus from the
/// chosen camera and microphone) behind the seed's calls and events.
///
/// The room lives on the main actor, as on iOS: its state, its calls and its listeners' events.
/// The publisher's threads hand every server message to the main actor through one stream, so
/// events arrive in the order the server sent them. A request's reply comes after the events it
/// caused (the protocol's rule), so when a call returns its events have been delivered.
@MainActor
public final class Room {
    /// What `createRoom` was given.
    struct Settings: Sendable {
        var roomId: String
        var token: String
        var participantName: String
        var participantId: String?
        var micEnabled: Bool
        var camEnabled: Bool
        var mode: Mode
        var customCameraTrack: CustomStreamTrack?
        var customMicrophoneTrack: CustomStreamTrack?
        var signalingURL: String
        /// Which way the first camera points when the app names none (`createRoom(defaultCamera:)`).
        var defaultCamera: FacingMode? = nil
    }

    /// What the publisher's threads hand the main actor.
    enum Inbound: Sendable {
        case message(ServerEnvelope)
        case stopped(String)
        case data(DataMessage)
        /// The signalling connection was lost: the room reconnects (Room+Reconnect.swift).
        case lost(String)
        /// The camera section (first offered, or offered again with another codec or more
        /// layers) was not accepted; the codec the answer did not take, nil when the server
        /// refused the whole offer.
        case cameraRefused(PublishedVideoCodec?, String)
    }

    /// The room's id, as given to `createRoom`; `switchTo` changes it.
    public internal(set) var id: String
    /// What `createRoom` was given (`switchTo` changes the room id and the token).
    var settings: Settings
    /// Counts the publishers this room has had: messages of one that was replaced (`switchTo`)
    /// are dropped.
    var generation = 0
    public private(set) var state: RoomState = .NEW
    /// This client once joined; nil before.
    public internal(set) var localParticipant: LocalParticipant?
    /// Everyone else in the room, by id.
    public internal(set) var participants: [String: RemoteParticipant] = [:]
    /// The session the join entered.
    public internal(set) var sessionId: String?
    var presenterId: String?
    var activeSpeakerId: String?

    var listeners: [WeakListener] = []
    var publisher: RoomPublisher?
    /// The video processor the camera's pictures pass through (`setVideoProcessor`).
    let videoProcessor = ProcessedCamera.Slot()
    /// What the microphone track sends through: its source, or the audio processing around it.
    var sentMicrophone: (any MicrophoneSource)?
    /// What the camera sends through (its source behind the video processor), while it is on.
    var sentCamera: (any CameraSource)?
    /// The media relays to other rooms, by destination room id (`requestMediaRelay`).
    var relays: [String: MediaRelay] = [:]
    var inbound: AsyncStream<Inbound>.Continuation?
    var pending: [RequestID: CheckedContinuation<ServerMessage, Never>] = [:]
    /// Set by `leave()` during a join: the join then leaves and returns without throwing.
    var leaveDuringJoin = false
    /// The running join's (or reconnection's), so `leave()` can withdraw it.
    var joinCancellation: JoinCancellation?
    /// This membership's secret for coming back after a lost connection (`JoinRequest.resumeKey`):
    /// made at each join, sent with it and with every reconnection attempt.
    var resumeKey = ""
    /// How long a lost connection is retried before the room is left with 1102
    /// WEBSOCKET_CONNECTION_ATTEMPTS_EXHAUSTED.
    var reconnectWindow: Duration = .seconds(30)
    /// Set by `end()`: the publisher stopping is the end, not a lost connection.
    var ending = false
    /// How long a request waits for its reply before it fails with 4000: the protocol answers
    /// every request, so this bounds a server fault, not a slow answer.
    static let replyTimeout: Duration = .seconds(30)

    // The local media: what is on, what is being switched, and from which track.
    var micOn = false
    var camOn = false
    /// The camera codecs this room's server did not take (`revue serve --video-codecs`): a
    /// camera track in one of them is refused with 3045 before it is turned on.
    var refusedCameraCodecs: Set<PublishedVideoCodec> = []
    var micBusy = false
    var camBusy = false
    /// `turnCamOn` waits for the server's answer about the camera it sends (and reports a
    /// refusal itself, so `refuseCamera` does not).
    var awaitingCameraAnswer = false
    /// The last error `onError` was given: a switch that reports instead of throwing (the
    /// seed's enableCam) is read back by `changeCam`, which throws it.
    var lastReported: VideoSDKError?
    /// A `changeMode` is running: the app's `enableCam` and `unmuteMic` get 3055 meanwhile.
    var modeBusy = false
    var cameraTrack: CustomStreamTrack?
    /// The screen share: on, being switched, its track and its publication's id.
    var shareOn = false
    var shareBusy = false
    var shareTrack: CustomStreamTrack?
    var sharePublication: Int?
    var shareSource: (any CameraSource)?
    /// The whiteboard's page while one is on, and whether a start or stop runs.
    var whiteboardURL: String?
    /// The language live translation comes in for this participant, once the server confirmed it.
    public internal(set) var translationLanguage: String?
    var whiteboardBusy = false
    /// The last state told of each kind of job (recording, hls, livestream).
    var lastJobStates: [String: ServerMessage] = [:]
    /// Reports 4013 when a livestream the server accepted has not started `livestreamStartWait`
    /// later (the seed's 20 s); cancelled by LIVESTREAM_STARTED, `stopLivestream` and leaving.
    var livestreamWatchdog: Task<Void, Never>?
    var livestreamStartWait: Duration = .seconds(20)
    /// What `pauseAllStreams` paused, as the server confirmed it, for asking again after a
    /// reconnection (the server's new member receives everything).
    var pausedKinds: Set<StreamKind> = []
    /// Adaptive subscription's state and its sampling task, while on.
    var adaptive = AdaptiveSubscription()
    var adaptiveTask: Task<Void, Never>?
    /// What was on when this client last left SEND_AND_RECV, for `changeMode` back.
    var sentBeforeModeChange: (mic: Bool, cam: Bool)?
    /// `setWebcamQuality`'s: what the camera sends of its track.
    var webcamQuality: VideoQuality = .high
    var microphoneTrack: CustomStreamTrack?
    /// The settings of the last camera track, for `enableCam()` without one (the seed's "the
    /// last track settings you selected").
    var cameraSettings: CustomStreamTrack?
    /// The settings of the last microphone track (profile, noise settings), for `unmuteMic()`
    /// without one: the seed keeps the track's settings for later `unmuteMic()` calls.
    var microphoneSettings: CustomStreamTrack?
    /// The camera and microphone `changeCam`/`changeMic`/`setAudioDevice` chose, for the next
    /// `enableCam()`/`unmuteMic()` without a track.
    var chosenCameraId: String?
    var chosenMicrophoneId: String?
    /// What plays the room's sound while joined (`Speaker`), when its device opened.
    var speaker: SpeakerPlayout?
    /// Looks for devices coming and going while `audioDeviceListener` is set.
    var deviceWatch: Task<Void, Never>?
    /// `setAudioDeviceChangeListener`'s closure.
    var audioDeviceListener: ((_ selected: MicrophoneDeviceInfo?, _ available: [MicrophoneDeviceInfo]) -> Void)?

    /// Made by `createRoom` (not `Room.shared`'s placeholder): it counts against the pre-call
    /// test from creation until it is left, fails or is let go of.
    nonisolated let created: Bool

    nonisolated init(settings: Settings, created: Bool = false) {
        id = settings.roomId
        self.settings = settings
        self.created = created
        if created { VideoSDK.state.with { $0.roomsIn += 1 } }
    }

    /// Whether a room in `state` keeps the pre-call test from running (the seed: "Run it before
    /// createRoom(), or after you leave the room"): from `createRoom` until it is left or its
    /// join failed.
    nonisolated func holdsPreCallTest(_ state: RoomState) -> Bool {
        created && [.NEW, .CONNECTING, .CONNECTED, .RECONNECTING, .CLOSING].contains(state)
    }

    /// A room let go of while joined leaves, rather than stay in the room until the server's
    /// keepalive notices (no events: nobody is listening to it any more). On the main actor,
    /// as everything else of the room.
    isolated deinit {
        if holdsPreCallTest(state) { VideoSDK.state.with { $0.roomsIn -= 1 } }
        guard [.CONNECTING, .CONNECTED, .RECONNECTING, .CLOSING].contains(state) else { return }
        joinCancellation?.cancel()
        adaptiveTask?.cancel()
        deviceWatch?.cancel()
        speaker?.stop()
        inbound?.finish()
        if let publisher { Self.inBackground { publisher.leave() } }
        for publisher in relays.values.map(\.publisher) { Self.inBackground { publisher.leave(reason: .removePeerMediaRelayStop) } }
        // Its tracks end, so their devices close.
        for track in [cameraTrack, microphoneTrack, shareTrack] {
            track?.publishing(false)
            track?.end(nil)
        }
    }

    /// The room this client joined last (the publish-options page's `Room.shared`); before any
    /// join, a room that was never joined, whose `localParticipant` is nil.
    public static var shared: Room { latest ?? unjoined }
    static weak var latest: Room?
    static let unjoined = Room(settings: Settings(roomId: "", token: "", participantName: "", participantId: nil, micEnabled: false,
                                                          camEnabled: false, mode: .SEND_AND_RECV, customCameraTrack: nil,
                                                          customMicrophoneTrack: nil, signalingURL: ""))

    // MARK: Listeners

    /// Adds a listener; the room holds it weakly, so keep it alive yourself.
    public func addEventListener(_ listener: RoomEventListener) {
        listeners.removeAll { $0.listener == nil || $0.listener === listener }
        listeners.append(WeakListener(listener: listener))
    }

    public func removeEventListener(_ listener: RoomEventListener) {
        listeners.removeAll { $0.listener == nil || $0.listener === listener }
    }

    public func removeAllEventListeners() {
        listeners.removeAll()
    }

    /// Whether a job's state differs from the last one told for its kind: a rejoin is told the
    /// running jobs' states again, which the app has heard already.
    func jobStateIsNew(_ message: ServerMessage, kind: String) -> Bool {
        guard lastJobStates[kind] != message else { return false }
        lastJobStates[kind] = message
        return true
    }

    func emit(_ event: (RoomEventListener) -> Void) {
        for entry in listeners { if let listener = entry.listener { event(listener) } }
    }

    func setState(_ next: RoomState) {
        guard next != state else { return }
        // How many rooms were created and not yet left, for the pre-call test's "before
        // createRoom or after you leave" rule.
        let wasIn = holdsPreCallTest(state)
        let isIn = holdsPreCallTest(next)
        if wasIn != isIn { VideoSDK.state.with { $0.roomsIn += isIn ? 1 : -1 } }
        state = next
        emit { $0.onRoomStateChanged(state: next) }
    }

    func report(_ error: VideoSDKError) {
        lastReported = error
        emit { $0.onError(error: error) }
    }

    /// `error`, after `onError` has it: for the calls whose errors go to both.
    func reported(_ error: VideoSDKError) -> VideoSDKError {
        report(error)
        return error
    }

    // MARK: Requests

    /// 3035 unless joined, 3065 while reconnecting (the seed's first two rules of most calls).
    func checkJoined() throws(VideoSDKError) {
        switch state {
        case .CONNECTED: return
        case .RECONNECTING: throw VideoSDKError.ERROR_ROOM_RECONNECTING
        default: throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED
        }
    }

    /// Sends a request and waits for its one reply (the protocol's rule). The reply's events
    /// were handled before it. A room that closes meanwhile answers `roomLeft`.
    func request(_ message: ClientMessage) async throws(VideoSDKError) -> ServerMessage {
        guard let publisher else { throw VideoSDKError.ERROR_ACTION_PERFORMED_BEFORE_ROOM_JOINED }
        // No suspension between the send and registering the waiter: replies are handled on
        // this actor, so none can be missed.
        let id = publisher.send(message)
        let timer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: Self.replyTimeout)
            guard !Task.isCancelled else { return }
            self?.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { pending[id] = $0 }
    }

    /// Fails a request the server did not answer (a server fault).
    func expire(_ id: RequestID) {
        pending.removeValue(forKey: id)?.resume(returning: .error(.unknownError, message: "the room server did not answer in \(Self.replyTimeout)"))
    }

    // MARK: Helpers

    /// Runs blocking work (a join, a leave) on `blockingWork`, off the main actor.
    nonisolated static func offMain<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            blockingWork.async { continuation.resume(with: Result { try work() }) }
        }
    }

    nonisolated static func offMain(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            blockingWork.async {
                work()
                continuation.resume()
            }
        }
    }

    /// Starts blocking work that no one waits for (a publisher leaving in the background).
    nonisolated static func inBackground(_ work: @escaping @Sendable () -> Void) {
        blockingWork.async(execute: work)
    }

    /// Where the SDK's blocking calls run (a join, a leave, a file upload), off the main actor
    /// and off Swift's cooperative pool, which blocking would starve. One queue whose threads
    /// are reused, rather than a thread per call; not serial, because a 30 s upload must not
    /// hold up a leave.
    nonisolated static let blockingWork = DispatchQueue(label: "revue.sdk.blocking", qos: .userInitiated, attributes: .concurrent)
}

/// A listener the room does not keep alive.
struct WeakListener {
    weak var listener: RoomEventListener?
}
