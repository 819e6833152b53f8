import APIModels
import Foundation
import JobSpec
import Postgres

/// Controls on a running job (docs/JOBS.md, "Controls on a running job"): the wanted state is
/// written to the job's row (`paused`, `config`, `outputs`) with `control_version` bumped, and a
/// NOTIFY on `controlChannel` tells the worker running it, which hands the child the new state
/// (`JobControl`). An attempt that takes the job over starts from the row, so a paused job stays
/// paused and a new layout stays.
extension JobStore {
    public static let controlChannel = "revue_job_control"

    /// Pauses or resumes the room's recording in progress; the job as it is now. Asking for
    /// the state it is in already changes nothing.
    public func setPaused(_ paused: Bool, roomID: String) throws -> Job {
        try pool.transaction { connection -> Job in
            let rows = try connection.query(
                "SELECT \(JobStore.columns) FROM jobs WHERE room_id = $1 AND kind = 'recording' AND state IN \(JobStore.activeStates) FOR UPDATE",
                [roomID])
            guard let row = rows.first else {
                throw ServiceError.jobNotRunning("room \(roomID) has no recording in progress to \(paused ? "pause" : "resume")")
            }
            let job = try JobStore.job(from: row)
            guard job.stopRequestedAt == nil else {
                throw ServiceError.jobNotRunning("the recording of room \(roomID) is stopping; it cannot be \(paused ? "paused" : "resumed")")
            }
            guard job.config.mode.composites else {
                throw ServiceError.invalidParameter("the recording of room \(roomID) writes each participant's tracks (config.mode \"tracks\"): it has no pause")
            }
            guard job.paused != paused else { return job }
            try connection.query("UPDATE jobs SET paused = $2, control_version = control_version + 1, updated_at = now() WHERE id = $1",
                                 [job.id, paused])
            try addControlEvent(connection, job: job, detail: paused ? "pause requested" : "resume requested")
            try connection.notify(JobStore.controlChannel, payload: job.id.uuidString)
            return try reload(job.id, connection: connection)
        }
    }

    /// A running job's new layout and theme (`POST /v2/{recordings|hls|livestreams}/{id}/layout`);
    /// the job as it is now.
    public func changeLayout(jobID: UUID, kind: JobKind, layout: LayoutSettings, theme: ThemeName) throws -> Job {
        try pool.transaction { connection -> Job in
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 AND kind = $2::job_kind AND deleted_at IS NULL FOR UPDATE",
                                            [jobID, kind.rawValue])
            guard let row = rows.first else { throw ServiceError.notFound("no \(kind.rawValue) \(jobID.uuidString.lowercased())") }
            let job = try JobStore.job(from: row)
            guard job.state.isActive, job.stopRequestedAt == nil else {
                throw ServiceError.jobNotRunning("\(kind.rawValue) \(job.idText) is \(job.clientState); only a running job's layout changes")
            }
            guard job.config.mode.composites else {
                throw ServiceError.invalidParameter("\(kind.rawValue) \(job.idText) writes each participant's tracks (config.mode \"tracks\"): it has no layout")
            }
            guard job.config.mode == .videoAndAudio else {
                throw ServiceError.invalidParameter("\(kind.rawValue) \(job.idText) is audio only (config.mode \"audio\"): it has no layout")
            }
            var config = job.config
            config.layout = layout
            config.theme = theme
            guard config != job.config else { return job }
            let text = String(decoding: try JSONEncoder().encode(config), as: UTF8.self)
            try connection.query("UPDATE jobs SET config = $2::jsonb, control_version = control_version + 1, updated_at = now() WHERE id = $1",
                                 [job.id, text])
            try addControlEvent(connection, job: job,
                                detail: "layout change requested: \(layout.type.rawValue), \(layout.priority.rawValue), gridSize \(layout.gridSize), theme \(theme.rawValue)")
            try connection.notify(JobStore.controlChannel, payload: job.id.uuidString)
            return try reload(job.id, connection: connection)
        }
    }

    /// Adds a destination to a running livestream, or removes the one whose `url` (and
    /// `streamKey`, when several share the URL) is given; the job as it is now. A livestream
    /// keeps one destination at least (stop it instead) and `LivestreamOutput.maximumCount` at
    /// most; a URL and key are there once.
    public func changeDestinations(jobID: UUID, adding: LivestreamOutput? = nil, removing url: String? = nil, streamKey: String? = nil) throws -> Job {
        try pool.transaction { connection -> Job in
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 AND kind = 'livestream' AND deleted_at IS NULL FOR UPDATE",
                                            [jobID])
            guard let row = rows.first else { throw ServiceError.notFound("no livestream \(jobID.uuidString.lowercased())") }
            let job = try JobStore.job(from: row)
            guard job.state.isActive, job.stopRequestedAt == nil else {
                throw ServiceError.jobNotRunning("livestream \(job.idText) is \(job.clientState); only a running livestream's destinations change")
            }
            var outputs = job.outputs
            let detail: String
            if let adding {
                guard !outputs.contains(where: { $0.publishURL == adding.publishURL }) else {
                    throw ServiceError.invalidLivestreamConfig("\(adding.url) with this stream key is a destination of this livestream already")
                }
                guard outputs.count < LivestreamOutput.maximumCount else {
                    throw ServiceError.invalidLivestreamConfig("a livestream has \(LivestreamOutput.maximumCount) destinations at most")
                }
                outputs.append(adding)
                detail = "destination added: \(adding.url)"
            } else if let url {
                let matching = outputs.indices.filter { outputs[$0].url == url && (streamKey == nil || outputs[$0].streamKey == streamKey) }
                guard let index = matching.first else {
                    throw ServiceError.notFound("\(url)\(streamKey == nil ? "" : " with that stream key") is not a destination of livestream \(job.idText)")
                }
                guard matching.count == 1 else {
                    throw ServiceError.invalidParameter("\(matching.count) destinations have the URL \(url): give streamKey too")
                }
                guard outputs.count > 1 else {
                    throw ServiceError.invalidLivestreamConfig("\(url) is the livestream's only destination: stop the livestream instead")
                }
                outputs.remove(at: index)
                detail = "destination removed: \(url)"
            } else {
                return job
            }
            let text = String(decoding: try JSONEncoder().encode(outputs), as: UTF8.self)
            try connection.query("UPDATE jobs SET outputs = $2::jsonb, control_version = control_version + 1, updated_at = now() WHERE id = $1",
                                 [job.id, text])
            try addControlEvent(connection, job: job, detail: detail)
            try connection.notify(JobStore.controlChannel, payload: job.id.uuidString)
            return try reload(job.id, connection: connection)
        }
    }

    /// Asks the room's running job of `kind` for a still picture of its composite; the job and
    /// the request (docs/JOBS.md, "Captures"). Requests older than a minute are dropped.
    public func requestCapture(kind: JobKind, roomID: String, width: Int?, height: Int?, format: CaptureRequest.Format,
                               now: Date = Date()) throws -> (Job, CaptureRequest)
    {
        try pool.transaction { connection -> (Job, CaptureRequest) in
            let rows = try connection.query(
                "SELECT \(JobStore.columns) FROM jobs WHERE room_id = $1 AND kind = $2::job_kind AND state IN \(JobStore.activeStates) FOR UPDATE",
                [roomID, kind.rawValue])
            let name = kind == .hls ? "HLS stream" : kind.rawValue
            guard let row = rows.first else { throw ServiceError.jobNotRunning("room \(roomID) has no \(name) in progress to capture") }
            let job = try JobStore.job(from: row)
            guard job.stopRequestedAt == nil else { throw ServiceError.jobNotRunning("the \(name) of room \(roomID) is stopping") }
            // A job no worker runs yet has no picture to give.
            guard job.state == .started || job.state == .playable else {
                throw ServiceError.jobNotRunning("the \(name) of room \(roomID) has not started yet (\(job.clientState))")
            }
            guard job.config.mode.composites else {
                throw ServiceError.invalidParameter("the \(name) of room \(roomID) writes each participant's tracks (config.mode \"tracks\"): no composite picture")
            }
            guard job.config.mode == .videoAndAudio else { throw ServiceError.jobNotRunning("the \(name) of room \(roomID) is audio only: no picture") }
            guard !job.paused else { throw ServiceError.jobNotRunning("the \(name) of room \(roomID) is paused: resume it to capture") }
            let request = CaptureRequest(id: UUID().uuidString.lowercased(), width: width, height: height, format: format,
                                         requestedAt: now.timeIntervalSince1970)
            let kept = job.captures.filter { now.timeIntervalSince1970 - $0.requestedAt < CaptureRequest.lifetime } + [request]
            let text = String(decoding: try JSONEncoder().encode(kept), as: UTF8.self)
            try connection.query("UPDATE jobs SET captures = $2::jsonb, control_version = control_version + 1, updated_at = now() WHERE id = $1",
                                 [job.id, text])
            try connection.notify(JobStore.controlChannel, payload: job.id.uuidString)
            return (try reload(job.id, connection: connection), request)
        }
    }

    /// The run paused or resumed (not the request: the moment it took effect, `detail` saying
    /// where in the recording): a line in the job's events and the `recording-paused` or
    /// `recording-resumed` webhook, if `workerID` still holds the job.
    public func notePause(_ paused: Bool, detail: String, jobID: UUID, workerID: String) throws {
        try pool.transaction { connection in
            let rows = try connection.query("SELECT \(JobStore.columns) FROM jobs WHERE id = $1 AND worker_id = $2 FOR UPDATE", [jobID, workerID])
            guard let row = rows.first else { return }
            let job = try JobStore.job(from: row)
            try connection.query(
                "INSERT INTO job_events (job_id, from_state, to_state, attempt, worker_id, detail) VALUES ($1, $2::job_state, $2::job_state, $3, $4, $5)",
                [job.id, job.state.rawValue, job.attempts, workerID, detail])
            try connection.notify(JobStore.eventsChannel, payload: job.id.uuidString)
            _ = try enqueueWebhooks(connection, job: job, event: "\(job.kind.clientStatePrefix.lowercased())-\(paused ? "paused" : "resumed")")
        }
    }

    /// The control versions of these jobs, as the database has them (a worker's heartbeat
    /// catches a control whose NOTIFY it missed).
    public func controlVersions(_ ids: [UUID]) throws -> [UUID: Int] {
        guard !ids.isEmpty else { return [:] }
        return try pool.with { connection in
            var versions: [UUID: Int] = [:]
            let list = "{" + ids.map { $0.uuidString }.joined(separator: ",") + "}"
            for row in try connection.query("SELECT id, control_version FROM jobs WHERE id = ANY($1::uuid[])", [list]) {
                versions[try row.decode("id")] = try row.decode("control_version")
            }
            return versions
        }
    }

    private func addControlEvent(_ connection: PostgresConnection, job: Job, detail: String) throws {
        try connection.query(
            "INSERT INTO job_events (job_id, from_state, to_state, attempt, worker_id, detail) VALUES ($1, $2::job_state, $2::job_state, $3, $4, $5)",
            [job.id, job.state.rawValue, job.attempts, job.workerID, detail])
        try connection.notify(JobStore.eventsChannel, payload: job.id.uuidString)
    }
}

extension Job {
    /// What the worker hands the job's run: the row's wanted state, captures written under
    /// `storage`.
    public func control(storage: String) -> JobControl {
        let directory = storage + "/" + JobPlan.captures(job: idText)
        return JobControl(version: controlVersion, paused: paused, layout: config.layout, theme: config.theme,
                          destinations: kind == .livestream ? outputs.map(\.publishURL) : nil,
                          captures: captures.isEmpty ? nil : captures.map { request in
                              var placed = request
                              placed.path = directory + "/" + request.fileName
                              return placed
                          })
    }
}
