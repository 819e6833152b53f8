import Synchronization

/// Where the SDK's camera and microphone permissions come from. iOS asks the user; a Linux
/// server has nobody to ask, so the default provider says `.authorized`. Set one that says
/// `.denied` or `.restricted` (`VideoSDK.setPermissionProvider(_:)`) and the seeds' 3017/3018
/// paths are taken exactly as on a phone whose user said no.
public protocol PermissionProvider: AnyObject, Sendable {
    func status(for kind: MediaKind) -> AuthorisationStatus
    /// Asks for access (the system prompt on iOS). Called only while the status is
    /// `.notDetermined`; it may answer later, as a person would.
    func request(_ kind: MediaKind)
}

/// The Linux provider: a status per kind, `.authorized` unless set otherwise. A request while
/// `.notDetermined` grants the access it is constructed to grant (there is no person to ask).
public final class StaticPermissionProvider: PermissionProvider {
    private let statuses: Mutex<[MediaKind: AuthorisationStatus]>
    private let answer: AuthorisationStatus

    /// - Parameter answer: what a request while `.notDetermined` turns the status into.
    public init(video: AuthorisationStatus = .authorized, audio: AuthorisationStatus = .authorized, answer: AuthorisationStatus = .authorized) {
        statuses = Mutex([.video: video, .audio: audio])
        self.answer = answer
    }

    public func status(for kind: MediaKind) -> AuthorisationStatus {
        statuses.withLock { $0[kind] ?? .authorized }
    }

    public func request(_ kind: MediaKind) {
        statuses.withLock { if $0[kind] == .notDetermined { $0[kind] = answer } }
    }

    /// Changes the status of one kind, as the user changing it in Settings would.
    public func set(_ status: AuthorisationStatus, for kind: MediaKind) {
        statuses.withLock { $0[kind] = status }
    }
}
