/// The answer to an `ask_join` participant's request to enter (`respondEntry`).
public enum EntryDecision: String, SignalingEnum {
    case allowed = "ALLOWED"
    case denied = "DENIED"
}
