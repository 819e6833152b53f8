import JobSpec
import Signaling

extension RoomRegistry {
    /// A job of the room changed state (`recordingStateChanged`, `hlsStateChanged`,
    /// `livestreamStateChanged`): everyone in the room is told, in the order the changes come,
    /// and those who join while the job runs are told its latest state after `joined`.
    public mutating func jobStateChanged(roomID: String, kind: JobKind, message: ServerMessage, running: Bool) -> [RoomAction] {
        if running {
            jobStates[roomID, default: [:]][kind] = message
        } else {
            jobStates[roomID]?[kind] = nil
            if jobStates[roomID]?.isEmpty == true { jobStates[roomID] = nil }
        }
        guard rooms[roomID]?.session != nil else { return [] }
        return [.broadcast(roomID: roomID, ServerEnvelope(message), except: nil)]
    }
}
