/// Which agent decides the pair (RFC 8445 §6.1.1). A lite agent is always controlled; the full
/// agent facing it is controlling.
public enum ICERole: Sendable, Hashable {
    /// Nominates the pair (USE-CANDIDATE) and sends ICE-CONTROLLING.
    case controlling
    /// Follows the peer's nomination and sends ICE-CONTROLLED.
    case controlled
}
