import Foundation
import JobSpec
import Postgres

/// A job read from its row.
extension JobStore {
    static func job(from row: PostgresRow) throws -> Job {
        // Every jsonb column is written only by this code: one it cannot read is an error that
        // names the column, never a job that silently has the defaults (a recording in the
        // wrong layout, a transcript forgotten).
        let parts = try decodeJSON("parts", [JobPart].self, in: row)
        let progress = try decodeJSON("progress", JobProgress.self, in: row)
        let outputs = try decodeJSON("outputs", [LivestreamOutput].self, in: row)
        guard let config = try decodeJSON("config", RecordingConfig.self, in: row) else {
            throw PostgresError(kind: .decodingFailed, message: "a job has no config")
        }
        let transcription = try decodeJSON("transcription", TranscriptionStatus.self, in: row)
        let captures = try decodeJSON("captures", [CaptureRequest].self, in: row)
        guard let kind = JobKind(rawValue: try row.decode("kind", as: String.self)),
              let state = JobState(rawValue: try row.decode("state", as: String.self))
        else { throw PostgresError(kind: .decodingFailed, message: "unknown job kind or state") }
        return Job(
            id: try row.decode("id"), kind: kind, roomID: try row.decode("room_id"), sessionID: try row.decode("session_id"),
            state: state, config: config, outputs: outputs ?? [], webhookURL: try row.decodeIfPresent("webhook_url"),
            awsDirPath: try row.decodeIfPresent("aws_dir_path"), preSignedURL: try row.decodeIfPresent("pre_signed_url"), workerID: try row.decodeIfPresent("worker_id"),
            leaseExpiresAt: try row.decodeIfPresent("lease_expires_at"), attempts: try row.decode("attempts"),
            stopRequestedAt: try row.decodeIfPresent("stop_requested_at"), errorCode: try row.decodeIfPresent("error_code"),
            errorMessage: try row.decodeIfPresent("error_message"), parts: parts ?? [], progress: progress, transcription: transcription,
            createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"), startedAt: try row.decodeIfPresent("started_at"),
            playableAt: try row.decodeIfPresent("playable_at"), stoppedAt: try row.decodeIfPresent("stopped_at"),
            roomNodeID: try row.decodeIfPresent("room_node_id"), paused: try row.decode("paused"), controlVersion: try row.decode("control_version"),
            captures: captures ?? [])
    }

    /// A jsonb column as `T`, nil when it is NULL; a value that does not decode throws.
    static func decodeJSON<T: Decodable>(_ column: String, _ type: T.Type, in row: PostgresRow) throws -> T? {
        guard let text = try row.decodeIfPresent(column, as: String.self) else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch {
            let id = (try? row.decode("id", as: UUID.self).uuidString.lowercased()) ?? "?"
            throw PostgresError(kind: .decodingFailed, message: "job \(id): its \(column) is not readable: \(error)")
        }
    }
}
