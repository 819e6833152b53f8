import Signaling

/// Why someone left (`onRoomLeft(reason:)`, `onParticipantLeft(_:reason:)`): the signalling
/// protocol's leave reasons, code and name (docs/SIGNALING.md's table).
public typealias LeaveReason = Signaling.LeaveReason
