/// Why a frame could not be decrypted.
public enum E2EEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No key for the sender: no shared key, and none for this participant.
    case noKey(participantID: String)
    /// The bytes are not an E2EE frame (too short, or its trailer does not add up).
    case malformed(String)
    /// The frame does not authenticate: the wrong key, or bytes changed on the way.
    case authenticationFailed
    /// A counter already seen on this stream: a replayed frame (RFC 9605 §9.3).
    case replayed(counter: UInt64)
    case cipher(String)

    public var description: String {
        switch self {
        case .noKey(let participant): "no E2EE key for participant \(participant)"
        case .malformed(let reason): "not an E2EE frame: \(reason)"
        case .authenticationFailed: "the frame does not authenticate (wrong key, or changed on the way)"
        case .replayed(let counter): "frame counter \(counter) was already seen"
        case .cipher(let reason): "AES-GCM: \(reason)"
        }
    }
}
