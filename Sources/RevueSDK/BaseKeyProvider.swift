import JobSpec
import Synchronization

/// The end-to-end encryption keys a client holds (seed 001, `setKeyProvider`; docs/E2EE.md): a
/// shared key encrypts the whole room; without one, a participant given a key encrypts its own
/// media with it. Keys are used exactly as given (their UTF-8 bytes are SFrame's base key).
public final class BaseKeyProvider: Sendable {
    private let state = Mutex(E2EEKeys())

    public init() {}

    /// Sets the key that encrypts the whole room.
    /// - Throws: 3073 for an empty key.
    public func setSharedKey(_ key: String) throws(VideoSDKError) {
        guard !key.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("the shared key is empty") }
        state.withLock { $0.sharedKey = key }
    }

    /// Forgets the shared key: participant keys apply again.
    public func removeSharedKey() {
        state.withLock { $0.sharedKey = nil }
    }

    /// The shared key, when one is set.
    public var sharedKey: String? { state.withLock { $0.sharedKey } }

    /// Sets, changes or (with nil) removes one participant's key.
    /// - Throws: 3073 for an empty participant id or key.
    public func setParticipantKey(_ participantId: String, key: String?) throws(VideoSDKError) {
        guard !participantId.isEmpty else { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("the participant id is empty") }
        if let key, key.isEmpty { throw VideoSDKError.ERROR_INVALID_PARAMETER.with("the key is empty; pass nil to remove it") }
        state.withLock { $0.participantKeys[participantId] = key }
    }

    /// A participant's key, as set with `setParticipantKey`.
    public func participantKey(_ participantId: String) -> String? { state.withLock { $0.participantKeys[participantId] } }

    /// Every key, as the media path uses them.
    var keys: E2EEKeys { state.withLock { $0 } }
}
