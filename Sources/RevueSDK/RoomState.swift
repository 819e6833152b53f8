/// Where a room is between `createRoom` and the end (`onRoomStateChanged(state:)`): CONNECTING
/// at `join()`, then CONNECTED, or FAILED when the join is refused; CLOSING at `leave()`/`end()`
/// and CLOSED once out.
public enum RoomState: String, Sendable, Hashable, CaseIterable {
    case NEW
    case CONNECTING
    case CONNECTED
    case RECONNECTING
    case CLOSING
    case CLOSED
    case FAILED
}
