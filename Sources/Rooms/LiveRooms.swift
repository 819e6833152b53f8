import Signaling

/// The live registry as the REST API reaches it (`APIService`): the room server implements it
/// by running the registry call on the registry's owner and carrying the actions out, the
/// `persist` ones written before it returns, so the API reads the database after it.
public protocol LiveRooms: AnyObject, Sendable {
    /// Ends the room's live session for everyone with `reason`; the ended session's id, or nil
    /// when the room has none live.
    func end(roomID: String, reason: LeaveReason) -> String?
    /// Takes a participant out of the room with `reason`; false when they are not in it.
    func remove(participantID: String, roomID: String, reason: LeaveReason) -> Bool
    /// The members of the room's live session, or nil when it has none.
    func activeParticipants(roomID: String) -> [LiveParticipant]?
    /// Lines of Prometheus text about live rooms and their media (`/metrics`).
    func metricLines() -> [String]
    /// Each member of the room's live session's connection quality, by participant id (empty
    /// when the room is not live here).
    func connectionQuality(roomID: String) -> [String: ConnectionQuality]
    /// The rooms with a live session here.
    func liveRoomIDs() -> [String]
    /// In a cluster, the base URL (`http://host:port`) of the live node that hosts the room's
    /// session when another node does; nil when this one does, or none.
    func hostURL(roomID: String) -> String?
}

extension LiveRooms {
    public func metricLines() -> [String] { [] }
    public func connectionQuality(roomID: String) -> [String: ConnectionQuality] { [:] }
    public func liveRoomIDs() -> [String] { [] }
    public func hostURL(roomID: String) -> String? { nil }
}
