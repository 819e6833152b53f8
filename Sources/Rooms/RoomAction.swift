import Signaling

/// What the registry decided, for its caller to carry out in order. Broadcasts go to the room's
/// members as they are after the call (`RoomRegistry.connections(roomID:)`), so carry a call's
/// actions out before the next call.
public enum RoomAction: Sendable, Hashable {
    /// One frame to one connection.
    case send(ConnectionID, ServerEnvelope)
    /// One frame to every joined member of the room (never to those waiting for entry), but `except`.
    case broadcast(roomID: String, ServerEnvelope, except: ConnectionID?)
    /// Close the connection with this WebSocket close code (`SignalingCloseCode`), after the frames before it.
    case close(ConnectionID, code: UInt16, reason: String)
    case media(MediaCommand)
    case persist(PersistCommand)
    case webhook(RoomWebhookEvent)
    case job(JobCommand)
    /// Translate a transcription line for the listeners who chose a language (by language) and
    /// send each its `translationText`: off the registry's thread (docs/TRANSCRIPTION.md).
    case translate(roomID: String, TranscriptionLine, listeners: [String: [ConnectionID]])
}
