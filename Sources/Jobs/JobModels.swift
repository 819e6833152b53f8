import Foundation

/// What a job makes.
public enum JobKind: String, Sendable, Codable, CaseIterable {
    case recording
    case hls
    case livestream

    /// The prefix of its webhook events: `recording-started`, `hls-playable`, …
    public var webhookPrefix: String { rawValue }

    /// The prefix of its client states: `RECORDING_STARTED`, `HLS_PLAYABLE`, …
    public var clientStatePrefix: String {
        switch self {
        case .recording: "RECORDING"
        case .hls: "HLS"
        case .livestream: "LIVESTREAM"
        }
    }

    /// The code of a job of this kind that stops on its own (5001–5003).
    public var failureCode: Int {
        switch self {
        case .recording: 5001
        case .livestream: 5002
        case .hls: 5003
        }
    }
}

/// A job's state (docs/JOBS.md). STARTING → STARTED (→ PLAYABLE for HLS) → STOPPING → STOPPED,
/// or FAILED from any active state.
public enum JobState: String, Sendable, Codable, CaseIterable {
    case starting = "STARTING"
    case started = "STARTED"
    case playable = "PLAYABLE"
    case stopping = "STOPPING"
    case stopped = "STOPPED"
    case failed = "FAILED"

    public var isActive: Bool { self != .stopped && self != .failed }

    /// The state as clients see it: `RECORDING_STARTED`, `HLS_PLAYABLE`, `LIVESTREAM_STOPPED`.
    /// FAILED is `…_FAILED`, which the platform's enums do not have; its webhook is `…-failed`.
    public func clientState(_ kind: JobKind) -> String { "\(kind.clientStatePrefix)_\(rawValue)" }
}

/// One output file (or HLS directory) of one attempt.
public struct JobPart: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        case writing, complete, repaired, lost
    }

    public var attempt: Int
    /// Relative to the storage directory: `recordings/<job>/part-1.mp4`, `hls/<job>/part-1`.
    public var path: String
    public var status: Status
    public var size: Int64?
    public var duration: Double?
    public var width: Int?
    public var height: Int?

    public init(attempt: Int, path: String, status: Status, size: Int64? = nil, duration: Double? = nil, width: Int? = nil,
                height: Int? = nil)
    {
        self.attempt = attempt
        self.path = path
        self.status = status
        self.size = size
        self.duration = duration
        self.width = width
        self.height = height
    }
}

/// What a running job last reported.
public struct JobProgress: Sendable, Codable, Equatable {
    public var mediaTime: Double
    public var fps: Double
    public var bitrate: Double
    public var bytes: Int64
    public var framesEncoded: Int64
    public var framesDropped: Int64
    /// Seconds the pipeline is behind real time.
    public var encodeLag: Double

    public init(mediaTime: Double = 0, fps: Double = 0, bitrate: Double = 0, bytes: Int64 = 0, framesEncoded: Int64 = 0,
                framesDropped: Int64 = 0, encodeLag: Double = 0)
    {
        self.mediaTime = mediaTime
        self.fps = fps
        self.bitrate = bitrate
        self.bytes = bytes
        self.framesEncoded = framesEncoded
        self.framesDropped = framesDropped
        self.encodeLag = encodeLag
    }
}

/// A livestream destination (`startLivestream` `outputs`).
public struct LivestreamOutput: Sendable, Codable, Equatable {
    public var url: String
    public var streamKey: String?

    public init(url: String, streamKey: String?) {
        self.url = url
        self.streamKey = streamKey
    }
}

/// A job as stored.
public struct Job: Sendable, Equatable {
    public var id: UUID
    public var kind: JobKind
    public var roomID: String
    public var sessionID: String
    public var state: JobState
    /// `config` as the API received it (JSON).
    public var config: String
    public var outputs: [LivestreamOutput]
    public var webhookURL: String?
    public var awsDirPath: String?
    public var workerID: String?
    public var leaseExpiresAt: Date?
    public var attempts: Int
    public var stopRequestedAt: Date?
    public var errorCode: Int?
    public var errorMessage: String?
    public var parts: [JobPart]
    public var progress: JobProgress?
    public var createdAt: Date
    public var updatedAt: Date
    public var startedAt: Date?
    public var playableAt: Date?
    public var stoppedAt: Date?

    public var clientState: String { state.clientState(kind) }
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
