import JobSpec
import Signaling

/// What the registry asks of the job service (`RoomJobs`): jobs started and stopped from inside
/// the room, the room's `autoStartConfig` when a session starts, and its jobs stopped when the
/// session ends. The database work runs off the media thread; the answer goes back to
/// `connection` with `requestID` (`ack`, or the error with the server's reason).
public enum JobCommand: Sendable, Hashable {
    /// `startRecording`, `startHls`, `startLivestream`: `options` is the REST start body without
    /// `roomId` (docs/SIGNALING.md).
    case start(JobKind, roomID: String, options: JSONValue, connection: ConnectionID, requestID: RequestID?)
    case stop(JobKind, roomID: String, connection: ConnectionID, requestID: RequestID?)
    /// A session began: start what the room's `autoStartConfig` asks for.
    case sessionStarted(roomID: String, sessionID: String)
    /// The session ended (the last one left, or the room was ended): stop its jobs, which finish
    /// their files.
    case sessionEnded(roomID: String, sessionID: String)

    /// The error a refused start or stop answers with (`../shared/seeds/004_…`).
    public static func refusalCode(_ kind: JobKind, starting: Bool) -> ErrorCode {
        switch (kind, starting) {
        case (.recording, true): .startRecordingFailed
        case (.recording, false): .stopRecordingFailed
        case (.hls, true): .startHLSFailed
        case (.hls, false): .stopHLSFailed
        case (.livestream, true): .startLivestreamFailed
        case (.livestream, false): .stopLivestreamFailed
        case (.transcription, true): .startTranscriptionFailed
        case (.transcription, false): .stopTranscriptionFailed
        }
    }
}
