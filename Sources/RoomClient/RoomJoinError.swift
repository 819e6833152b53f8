/// Why a client could not join a room, or lost it: the server refused the join (its code and
/// message), did not answer in time, or the connection failed.
public struct RoomJoinError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}
