/// Why an SCTP association ended.
public enum SCTPDownReason: Sendable, Hashable, CustomStringConvertible {
    /// The peer sent ABORT.
    case abortedByPeer
    /// This side gave up: retransmissions or heartbeats went unanswered (RFC 9260 §8.1), or it
    /// received something that forced an abort.
    case lost
    /// The association never came up: INIT or COOKIE ECHO went unanswered (RFC 9260 §5.1).
    case cannotStart
    /// The peer shut the association down gracefully (RFC 9260 §9.2).
    case shutdown
    /// `close()` was called here.
    case closedLocally

    public var description: String {
        switch self {
        case .abortedByPeer: "the peer aborted the association"
        case .lost: "the association was lost (the peer stopped answering)"
        case .cannotStart: "the association could not be established"
        case .shutdown: "the peer shut the association down"
        case .closedLocally: "the association was closed here"
        }
    }
}
