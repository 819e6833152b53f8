import JobSpec

/// The job service as the room server reaches it: `APIService` implements it with the same
/// validation and rules as the REST start and stop routes, so a job started from inside a room
/// is the same as one a backend starts.
public protocol RoomJobs: AnyObject, Sendable {
    /// Starts a job of `kind` on the room; throws the reason it cannot (a `ServiceError`).
    func start(_ kind: JobKind, roomID: String, options: JSONValue) throws
    /// Asks the room's running job of `kind` to stop; throws when there is none.
    func stop(_ kind: JobKind, roomID: String) throws
    /// Starts what the room's `autoStartConfig` asks for when its session `sessionID` begins.
    func sessionStarted(roomID: String, sessionID: String) throws
    /// Stops every running job of the room: its session ended.
    func sessionEnded(roomID: String, sessionID: String) throws
}
