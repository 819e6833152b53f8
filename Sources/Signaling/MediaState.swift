import JobSpec

/// What a participant publishes: microphone, camera, screen share. The client reports its own
/// with `mediaState`; the server's view of it is in every participant object (`media`).
public struct MediaState: Sendable, Hashable {
    public var mic: Bool
    public var webcam: Bool
    public var screenShare: Bool

    public init(mic: Bool = false, webcam: Bool = false, screenShare: Bool = false) {
        self.mic = mic
        self.webcam = webcam
        self.screenShare = screenShare
    }

    /// Nothing published.
    public static let off = MediaState()

    /// The state of one kind: audio is the mic, video the webcam, share the screen share.
    public subscript(kind: StreamKind) -> Bool {
        get {
            switch kind {
            case .audio: mic
            case .video: webcam
            case .share: screenShare
            }
        }
        set {
            switch kind {
            case .audio: mic = newValue
            case .video: webcam = newValue
            case .share: screenShare = newValue
            }
        }
    }

    /// The kinds that are on.
    public var enabledKinds: [StreamKind] { StreamKind.allCases.filter { self[$0] } }

    public var json: JSONValue { .object(["mic": .bool(mic), "webcam": .bool(webcam), "screenShare": .bool(screenShare)]) }
}
