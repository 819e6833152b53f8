import Signaling

/// Why a client could not join a room, or lost it: the server refused the join (its code and
/// message), did not answer in time, or the connection failed.
public struct RoomJoinError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The server's code when it refused the join (4002 INVALID_TOKEN, 3047 …); nil when the
    /// failure was ours or the network's, so the SDK can tell whose fault it is.
    public let code: ErrorCode?
    public var description: String { message }

    public init(message: String, code: ErrorCode? = nil) {
        self.message = message
        self.code = code
    }
}
