/// The direction attribute of a media section (RFC 8866 §6.7, RFC 3264 §6.1), from the point of
/// view of the side that wrote it. Absent means `sendrecv`.
public enum MediaDirection: String, Sendable, CaseIterable {
    /// Sends and receives.
    case sendrecv
    /// Only sends.
    case sendonly
    /// Only receives.
    case recvonly
    /// Neither; the section is kept for later.
    case inactive

    /// Whether the writer sends media.
    public var sends: Bool { self == .sendrecv || self == .sendonly }
    /// Whether the writer receives media.
    public var receives: Bool { self == .sendrecv || self == .recvonly }

    /// The direction with the given sending and receiving.
    public init(sends: Bool, receives: Bool) {
        switch (sends, receives) {
        case (true, true): self = .sendrecv
        case (true, false): self = .sendonly
        case (false, true): self = .recvonly
        case (false, false): self = .inactive
        }
    }

    /// The same flow seen from the other side: sendonly ↔ recvonly (RFC 3264 §6.1).
    public var reversed: MediaDirection { MediaDirection(sends: receives, receives: sends) }
}
