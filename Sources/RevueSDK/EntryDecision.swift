import Signaling

/// The answer to a request to enter (`respondEntry(participantId:decision:)`).
public enum EntryDecision: String, Sendable, Hashable, CaseIterable {
    case ALLOWED, DENIED

    var signaling: Signaling.EntryDecision { self == .ALLOWED ? .allowed : .denied }

    init(_ decision: Signaling.EntryDecision) {
        self = decision == .allowed ? .ALLOWED : .DENIED
    }
}
