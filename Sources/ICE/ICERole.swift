/// Which agent decides the pair (RFC 8445 §6.1.1). A lite agent is always controlled; the full
/// agent facing it is controlling.
public enum ICERole: Sendable, Hashable {
    case controlling
    case controlled
}
