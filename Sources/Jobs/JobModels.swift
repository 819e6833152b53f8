import Foundation
import JobSpec

/// A job as stored: its request (kind, room, config, outputs, webhook, storage path) and what
/// has happened to it since. The request's fields keep the types the API validated them into.
public struct Job: Sendable, Equatable {
    public var id: UUID
    public var kind: JobKind
    public var roomID: String
    public var sessionID: String
    public var state: JobState
    public var config: RecordingConfig
    public var outputs: [LivestreamOutput]
    public var webhookURL: String?
    public var awsDirPath: String?
    /// A presigned PUT URL the recording goes to when it finishes (never shown by the API).
    public var preSignedURL: String?
    public var workerID: String?
    public var leaseExpiresAt: Date?
    public var attempts: Int
    public var stopRequestedAt: Date?
    public var errorCode: Int?
    public var errorMessage: String?
    public var parts: [JobPart]
    public var progress: JobProgress?
    /// The transcript asked for and where it is; nil when none was asked for.
    public var transcription: TranscriptionStatus?
    public var createdAt: Date
    public var updatedAt: Date
    public var startedAt: Date?
    public var playableAt: Date?
    public var stoppedAt: Date?
    /// In a cluster, the node the job's room is placed on now (docs/CLUSTER.md); read, never written.
    public var roomNodeID: String? = nil
    /// A recording paused through the API (docs/JOBS.md, "Controls on a running job").
    public var paused = false
    /// Bumped by every control (pause, resume, layout); the worker hands its run each new one.
    public var controlVersion = 0
    /// Still pictures asked for in the last minute (`POST /v2/hls/capture`).
    public var captures: [CaptureRequest] = []

    public var clientState: String { state.clientState(kind) }

    /// The id as the API writes it.
    public var idText: String { id.uuidString.lowercased() }

    /// The latest part of `kind` that is not lost.
    public func latestPart(_ kind: PartKind) -> JobPart? {
        parts.last { $0.kind == kind && $0.status != .lost }
    }
}

/// One row of a job's history.
public struct JobEvent: Sendable, Equatable {
    public var id: Int64
    public var fromState: JobState?
    public var toState: JobState
    public var attempt: Int
    public var workerID: String?
    public var detail: String?
    public var createdAt: Date
}
