import Fixture
import Foundation
import JobSpec
import Log
import Outputs
import Platform
import Postgres
import Storage
import Synchronization

/// Takes jobs from PostgreSQL and runs each in a child process (`revue record --spec FILE`), so
/// one crashing pipeline cannot take down the others or the worker. docs/JOBS.md.
///
/// - The child gets the job's `PipelineSpec` in a file only this user can read (mode 0600),
///   never on its command line: stream keys do not show in `ps`.
///
/// - Claims jobs with `FOR UPDATE SKIP LOCKED` and holds a lease it extends every
///   `heartbeatInterval`; wakes on LISTEN/NOTIFY, and otherwise sleeps until a lease held by
///   someone else is due to run out, so a dead worker's job is taken over within
///   lease + a moment.
/// - A stop request (NOTIFY) reaches the child at once (SIGTERM); it finishes its outputs.
/// - A taken-over job continues as attempt + 1 in a new part; the parts a dead worker left are
///   repaired (a killed MP4 becomes a faststart one).
/// - When the worker itself is asked to stop, it takes no new jobs, lets each child finish its
///   part, and hands the jobs back for another worker to continue.
/// - A child dies with the worker (PR_SET_PDEATHSIG), so a job never runs twice.
/// - A finished job's files are uploaded (awsDirPath, preSignedUrl) before it is STOPPED, on a
///   thread of their own with the lease renewed; a job taken over mid-upload resumes it from the
///   parts the database says are done (docs/STORAGE.md).
// @unchecked Sendable: mutable state (running, preparing, uploading) guarded by `lock`; the lease-check dates are the run loop's
public final class Worker: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var workerID: String
        public var maxJobs: Int
        /// The cores this worker's jobs may take together (`JobCost`): a job that would go past
        /// them is left to another worker, unless this one runs nothing (so a job costlier than
        /// every budget still runs, alone). Default: the machine's cores.
        public var maxCPU: Double = Double(ProcessInfo.processInfo.activeProcessorCount)
        public var lease: Double
        public var heartbeatInterval: Double
        /// Where outputs are written.
        public var storage: String
        /// Room X is the fixture `fixtureRooms/X`, replayed live and looped.
        public var fixtureRooms: FixtureRooms?
        /// The `revue` executable that runs a job.
        public var executable: String
        /// The bucket for jobs with an `awsDirPath` (nil: none; such jobs keep their files local).
        public var objectStorage: ObjectStorageConfig?
        /// Live rooms: the room server's signalling URL and how to mint a recorder's token for a
        /// room (nil: only fixture rooms are recorded).
        public var liveRooms: LiveRoomAccess?
        /// Variables set for every job's child on top of the worker's own environment (for
        /// example `REVUE_SPEECH_VENV`, where the speech engine is).
        public var childEnvironment: [String: String] = [:]
        /// Where transcripts' summaries are written (`REVUE_SUMMARY_URL`…); nil: a requested
        /// summary is not made, and the job says so.
        public var summaryEndpoint: SummaryEndpoint?

        /// What a worker needs to record live rooms.
        public struct LiveRoomAccess: Sendable {
            /// `ws://host:port/v2/rtc`.
            public var signalingURL: String
            /// A hidden recorder's token for (room, participant id).
            public var token: @Sendable (String, String) throws -> String

            public init(signalingURL: String, token: @escaping @Sendable (String, String) throws -> String) {
                self.signalingURL = signalingURL
                self.token = token
            }
        }

        public init(workerID: String, maxJobs: Int = 4, lease: Double = 10, heartbeatInterval: Double = 3, storage: String,
                    fixtureRooms: FixtureRooms?, executable: String, objectStorage: ObjectStorageConfig? = nil)
        {
            self.workerID = workerID
            self.maxJobs = maxJobs
            self.lease = lease
            self.heartbeatInterval = heartbeatInterval
            self.storage = storage
            self.fixtureRooms = fixtureRooms
            self.executable = executable
            self.objectStorage = objectStorage
        }
    }

    struct Running {
        var job: Job
        var process: Subprocess
        var parts: [JobPart]
        var events: JobRunEvent.Reader
        var log: String
        var progress: JobProgress?
        var stopSentAt: Date?
        var reportedStarted = false
        var handingBack = false
    }

    public let configuration: Configuration
    public let store: JobStore
    private let logger: Logger
    private var running: [UUID: Running] = [:]
    /// Jobs claimed and not yet running (their earlier parts are being repaired): their leases
    /// are renewed too, and a lease lost meanwhile stops them from starting.
    private var preparing: [UUID: Bool] = [:]
    /// Jobs whose files are being uploaded (true while this worker still holds them).
    private var uploading: [UUID: Bool] = [:]
    private let stopping = Atomic<Bool>(false)
    private let uploads: UploadStore
    private let objectStorage: S3Client?
    private let lock = NSLock()
    private let heartbeatsEnded = Atomic<Bool>(false)
    private var nextLeaseCheck = Date.distantPast
    private var otherLeaseExpiry: Date?

    public init(store: JobStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
        uploads = UploadStore(pool: store.pool)
        objectStorage = configuration.objectStorage.map(S3Client.init(config:))
        logger = Logger(label: "worker", fields: ["workerId": .string(configuration.workerID)])
    }

    /// The environment of a job's child: the worker's, with `childEnvironment` on top.
    var childEnvironment: [String: String]? {
        configuration.childEnvironment.isEmpty ? nil
            : ProcessInfo.processInfo.environment.merging(configuration.childEnvironment) { $1 }
    }

    /// Jobs running now (for metrics and status).
    public var runningJobs: [(job: Job, progress: JobProgress?)] {
        lock.lock()
        defer { lock.unlock() }
        return running.values.map { ($0.job, $0.progress) }
    }

    /// Works until `shouldStop`, then hands its jobs back.
    public func run(shouldStop: @escaping @Sendable () -> Bool) {
        logger.info("worker started", ["maxJobs": .of(configuration.maxJobs), "maxCpu": .double(configuration.maxCPU),
                                       "storage": .string(configuration.storage)])
        // Leases are renewed on their own thread, so nothing this loop does (repairing a long
        // part, waiting for children to finish at shutdown) can let one run out under a job
        // that is still running here.
        let heartbeats = Thread { [self] in
            while !heartbeatsEnded.load(ordering: .relaxed) {
                heartbeat()
                var slept = 0.0
                while slept < configuration.heartbeatInterval && !heartbeatsEnded.load(ordering: .relaxed) {
                    Thread.sleep(forTimeInterval: 0.1)
                    slept += 0.1
                }
            }
        }
        heartbeats.name = "worker heartbeats"
        heartbeats.start()
        defer { heartbeatsEnded.store(true, ordering: .relaxed) }
        var listener: PostgresConnection?
        while !shouldStop() {
            do {
                if listener == nil {
                    let connection = try PostgresConnection(store.pool.connectionString)
                    try connection.listen(JobStore.jobsChannel)
                    try connection.listen(JobStore.stopChannel)
                    listener = connection
                }
                while count < configuration.maxJobs,
                      let claim = try store.claim(workerID: configuration.workerID, lease: configuration.lease, budget: budget)
                {
                    start(claim)
                }
                pollChildren()
                var wait = count > 0 ? 0.25 : 5
                if let expiry = try leaseExpiry() { wait = min(wait, expiry.timeIntervalSinceNow + 0.05) }
                for notification in try listener?.waitForNotifications(timeout: max(0.01, wait)) ?? []
                where notification.channel == JobStore.stopChannel {
                    if let id = UUID(uuidString: notification.payload) { sendStop(id, reason: "stop requested") }
                }
            } catch {
                logger.error("worker loop error; retrying", ["error": .string("\(error)")])
                listener = nil
                Thread.sleep(forTimeInterval: 1)
            }
        }
        shutDown()
    }

    private var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return running.count + preparing.count + uploading.count
    }

    /// The cores the running jobs take (`JobCost`); uploads take next to none.
    public var cpuLoad: Double {
        lock.lock()
        defer { lock.unlock() }
        return running.values.reduce(0) { $0 + JobCost.of($1.job) }
    }

    /// What a claim may cost now: the cores left, or anything when nothing runs.
    private var budget: Double? {
        let load = cpuLoad
        return load == 0 ? nil : configuration.maxCPU - load
    }

    /// The next expiry of a lease held by another worker, checked every few seconds.
    private func leaseExpiry() throws -> Date? {
        if Date() >= nextLeaseCheck {
            otherLeaseExpiry = try store.nextLeaseExpiry(excluding: configuration.workerID)
            nextLeaseCheck = Date().addingTimeInterval(2)
        }
        guard let expiry = otherLeaseExpiry, expiry > Date().addingTimeInterval(-1) else { return nil }
        return expiry
    }

    // MARK: - Starting

    private func start(_ claim: JobStore.Claim) {
        lock.lock()
        preparing[claim.job.id] = true
        lock.unlock()
        defer {
            lock.lock()
            preparing[claim.job.id] = nil
            lock.unlock()
        }
        var job = claim.job
        let jobLogger = logger.with(["jobId": .string(job.id.uuidString.lowercased()), "attempt": .of(job.attempts)])
        jobLogger.info("claimed job", ["kind": .string(job.kind.rawValue), "roomId": .string(job.roomID),
                                       "previousWorker": .string(claim.previousWorker ?? ""), "cost": .double(JobCost.of(job)),
                                       "load": .double(cpuLoad), "maxCpu": .double(configuration.maxCPU)])
        var parts = finishEarlierParts(job.parts, logger: jobLogger)
        if job.stopRequestedAt != nil || job.state == .stopping || (try? uploads.hasUnfinished(jobID: job.id)) == true {
            // Stopped before (or while) a worker ran it: nothing more to record, but perhaps
            // files to upload (a worker that died mid-upload left them).
            finishRecorded(job, parts: parts, detail: "stopped", logger: jobLogger)
            return
        }
        // A fixture room plays its fixture; any other room is joined live.
        let source: MediaSourceSpec
        if let fixture = configuration.fixtureRooms?.path(of: job.roomID) {
            source = .fixture(FixtureSourceSpec(directory: fixture, passes: nil, realtime: true))
        } else if let live = configuration.liveRooms, let token = try? live.token(job.roomID, "recorder-\(job.idText.prefix(8))") {
            source = .room(RoomSourceSpec(signalingURL: live.signalingURL, roomID: job.roomID, token: token))
        } else {
            finish(job.id, event: .failed, parts: parts, detail: "no media source for room \(job.roomID)", logger: jobLogger,
                   error: (job.kind.failureCode, "room \(job.roomID) has no media source on this worker (no fixture, and no room server)"))
            return
        }
        lock.lock()
        let stillHeld = preparing[job.id] == true
        lock.unlock()
        guard stillHeld else {
            jobLogger.warning("lost the lease while repairing earlier parts; another worker has the job")
            return
        }
        let directory = "\(configuration.storage)/jobs/\(job.idText)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let eventsPath = "\(directory)/attempt-\(job.attempts).events"
        let logPath = "\(directory)/attempt-\(job.attempts).log"
        let specPath = "\(directory)/attempt-\(job.attempts).spec.json"
        let plan = JobPlan(job: job, source: source, storage: configuration.storage, eventsPath: eventsPath, parentPID: getpid(),
                           objectStorage: configuration.objectStorage)
        parts += plan.parts
        do {
            try store.setParts(jobID: job.id, workerID: configuration.workerID, parts: parts)
            job.parts = parts
            for part in plan.parts {
                let path = configuration.storage + "/" + part.path
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
            }
            try plan.spec.write(to: specPath)
            let arguments = ["record", "--spec", specPath, "--log-format", "json", "--log-level", "info"]
            let process = try Subprocess(configuration.executable, arguments, environment: childEnvironment,
                                         standardOutput: .file(logPath), standardError: .file(logPath))
            lock.lock()
            running[job.id] = Running(job: job, process: process, parts: parts, events: JobRunEvent.Reader(path: eventsPath), log: logPath)
            lock.unlock()
            jobLogger.info("pipeline started", ["pid": .of(process.pid)])
        } catch {
            finish(job.id, event: .failed, parts: parts, detail: "could not start the pipeline", logger: jobLogger,
                   error: (job.kind.failureCode, "could not start the pipeline: \(error)"))
        }
    }

    /// Repairs what earlier attempts left unfinished: a killed MP4 becomes faststart, a killed
    /// HLS playlist is ended. A part whose attempt ended before it wrote anything is dropped.
    private func finishEarlierParts(_ parts: [JobPart], logger: Logger) -> [JobPart] {
        parts.compactMap { part in
            guard part.status == .writing else { return part }
            var fixed = part
            switch OutputPart.finishAbandoned(part.kind, at: configuration.storage + "/" + part.path) {
            case .nothingRecorded:
                logger.info("an attempt ended before it recorded anything", ["part": .string(part.path)])
                return nil
            case .repaired(let fragments):
                fixed.status = .repaired
                logger.info("repaired the part an earlier attempt left", ["part": .string(part.path), "fragments": .of(fragments)])
            case .complete:
                fixed.status = .complete
            case .lost(let why):
                fixed.status = .lost
                logger.warning("an earlier part could not be repaired", ["part": .string(part.path), "error": .string(why)])
            }
            return Worker.describe(fixed, storage: configuration.storage)
        }
    }

    // MARK: - Running

    private func pollChildren() {
        lock.lock()
        let ids = Array(running.keys)
        lock.unlock()
        for id in ids {
            lock.lock()
            guard var entry = running[id] else {
                lock.unlock()
                continue
            }
            lock.unlock()
            let jobLogger = logger.with(["jobId": .string(id.uuidString.lowercased()), "attempt": .of(entry.job.attempts)])
            for event in entry.events.readNew() {
                switch event.event {
                case .started where !entry.reportedStarted:
                    entry.reportedStarted = true
                    _ = try? store.apply(.started, to: id, workerID: configuration.workerID, detail: "attempt \(entry.job.attempts) started")
                case .playable:
                    _ = try? store.apply(.playable, to: id, workerID: configuration.workerID, detail: "three segments published")
                case .progress:
                    entry.progress = event.progress
                case .outputFailed:
                    jobLogger.warning("an output failed", ["output": .string(event.output ?? ""), "error": .string(event.error ?? "")])
                default:
                    break
                }
            }
            // A child asked to stop that does not, in time, is killed; its part is repaired.
            if let sent = entry.stopSentAt, Date().timeIntervalSince(sent) > 30 { entry.process.signal(SIGKILL) }
            lock.lock()
            // The heartbeat thread may have dropped the job meanwhile (its lease was lost).
            guard let current = running[id] else {
                lock.unlock()
                continue
            }
            entry.stopSentAt = current.stopSentAt
            entry.handingBack = current.handingBack
            running[id] = entry
            lock.unlock()
            guard let termination = entry.process.poll() else { continue }
            lock.lock()
            running[id] = nil
            lock.unlock()
            completed(entry, termination: termination, logger: jobLogger)
        }
    }

    private func completed(_ entry: Running, termination: Subprocess.Termination, logger: Logger) {
        let clean = termination == .exited(0)
        var parts = entry.parts.map { part -> JobPart in
            guard part.attempt == entry.job.attempts, part.status == .writing else { return part }
            var done = part
            done.status = clean ? .complete : .writing
            return done
        }
        if !clean { parts = finishEarlierParts(parts, logger: logger) }
        parts = parts.map { Worker.describe($0, storage: configuration.storage) }
        logger.info("pipeline ended", ["termination": .string(termination.description)])
        if entry.handingBack {
            do {
                try store.release(jobID: entry.job.id, workerID: configuration.workerID, parts: parts)
                logger.info("handed the job back")
            } catch {
                logger.error("could not hand the job back", ["error": .string("\(error)")])
            }
            return
        }
        if clean || entry.stopSentAt != nil {
            finishRecorded(entry.job, parts: parts, detail: "attempt \(entry.job.attempts) finished", logger: logger)
        } else {
            let tail = ((try? String(contentsOfFile: entry.log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3).joined(separator: " | ")
            finish(entry.job.id, event: .failed, parts: parts, detail: "the pipeline ended: \(termination)", logger: logger,
                   error: (entry.job.kind.failureCode, "the pipeline ended with \(termination): \(tail.suffix(400))"))
        }
    }

    /// Ends a job whose recording is over: makes its transcript when one was asked for, uploads
    /// its files when it has any to upload (on a thread of its own, the lease renewed by the
    /// heartbeat), then STOPPED, or FAILED with the upload's reason and the local files kept. A
    /// transcript that fails says so in its own state and never fails the recording.
    private func finishRecorded(_ job: Job, parts: [JobPart], detail: String, logger: Logger) {
        // A live transcription job's `transcription` is its settings: its child wrote the
        // transcript of what it heard; a summary of it is made here when asked for.
        let wantsTranscript = job.kind != .transcription && (job.transcription.map { $0.state == .waiting || $0.state == .started } ?? false)
        let heardLive = job.kind == .transcription && job.transcription != nil
        guard wantsTranscript || heardLive || JobUploader.hasWork(job, parts: parts, storageConfigured: objectStorage != nil) else {
            finish(job.id, event: .finished, parts: parts, detail: detail, logger: logger)
            return
        }
        let id = job.id
        lock.lock()
        uploading[id] = true
        lock.unlock()
        let thread = Thread { [self] in
            // Stops between steps when the worker is stopping or the heartbeat found the job lost.
            let shouldStop = { [self] in
                lock.lock()
                defer { lock.unlock() }
                return uploading[id] != true || stopping.load(ordering: .relaxed)
            }
            defer {
                lock.lock()
                uploading[id] = nil
                lock.unlock()
            }
            var parts = parts
            var transcription = job.transcription
            if wantsTranscript, var status = transcription {
                // The finished parts are listed before the transcript is made: a worker that
                // takes the job over if this one dies must find them complete, not abandoned.
                try? store.setParts(jobID: id, workerID: configuration.workerID, parts: parts)
                status.state = .started
                status.error = nil
                _ = try? store.setTranscription(status, jobID: id, workerID: configuration.workerID)
                let transcriber = JobTranscriber(executable: configuration.executable, storageRoot: configuration.storage,
                                                 environment: childEnvironment, logger: logger)
                switch transcriber.run(job, parts: parts, request: status.request, shouldStop: shouldStop) {
                case .done(let made, let segments):
                    parts = made
                    status.state = .stopped
                    status.segments = segments
                case .failed(let reason):
                    logger.error("the transcription failed; the recording is kept", ["error": .string(reason)])
                    status.state = .failed
                    status.error = reason
                case .interrupted:
                    handBack(id, parts: parts, logger: logger, what: "mid-transcription")
                    return
                }
                if status.state == .stopped, let summary = status.request.summary {
                    status.summary = summarize(parts: parts, request: summary, shouldStop: shouldStop, logger: logger)
                }
                transcription = status
                try? store.setParts(jobID: id, workerID: configuration.workerID, parts: parts)
            }
            if heardLive, var status = transcription {
                status.state = .stopped
                status.segments = parts.filter { $0.kind == .transcript && $0.status == .complete }
                    .reduce(0) { $0 + JobTranscriber.segmentCount(configuration.storage + "/" + $1.path + "/" + TranscriptPart.fileName("json")) }
                if let summary = status.request.summary { status.summary = summarize(parts: parts, request: summary, shouldStop: shouldStop, logger: logger) }
                transcription = status
            }
            let outcome: JobUploader.Outcome
            let uploadsFiles = JobUploader.hasWork(job, parts: parts, storageConfigured: objectStorage != nil)
            if uploadsFiles {
                try? store.setParts(jobID: id, workerID: configuration.workerID, parts: parts)
                let uploader = JobUploader(storage: objectStorage, uploads: uploads, storageRoot: configuration.storage,
                                           workerID: configuration.workerID, logger: logger)
                outcome = uploader.run(job, parts: parts, shouldStop: shouldStop)
            } else {
                outcome = .done(parts)
            }
            // The transcript's final state goes out once its files are where they stay.
            let settle = { [self] (final: [JobPart]) in
                guard wantsTranscript || heardLive, let transcription else { return }
                do {
                    try store.setTranscription(transcription, jobID: id, workerID: configuration.workerID, parts: final)
                } catch {
                    logger.error("could not record the transcript's state", ["error": .string("\(error)")])
                }
            }
            switch outcome {
            case .done(let uploaded):
                settle(uploaded)
                finish(id, event: .finished, parts: uploaded, detail: uploadsFiles ? "\(detail); files uploaded" : detail, logger: logger)
            case .failed(let kept, let reason):
                settle(kept)
                finish(id, event: .failed, parts: kept, detail: "upload failed", logger: logger, error: (job.kind.failureCode, reason))
            case .interrupted(let sofar):
                handBack(id, parts: sofar, logger: logger, what: "mid-upload")
            }
        }
        thread.name = "finish \(job.idText)"
        thread.start()
    }

    /// Gives a job back between steps of its ending (the worker is stopping), unless the job is
    /// already lost; its next holder resumes.
    private func handBack(_ id: UUID, parts: [JobPart], logger: Logger, what: String) {
        lock.lock()
        let stillHeld = uploading[id] == true
        lock.unlock()
        guard stillHeld else {
            logger.warning("lost the job \(what); its next holder resumes")
            return
        }
        do {
            try store.release(jobID: id, workerID: configuration.workerID, parts: parts)
            logger.info("handed the job back \(what); the next holder resumes it")
        } catch {
            logger.error("could not hand the job back", ["error": .string("\(error)")])
        }
    }

    private func finish(_ id: UUID, event: JobStateMachine.Event, parts: [JobPart], detail: String, logger: Logger,
                        error: (Int, String)? = nil)
    {
        do {
            try store.apply(event, to: id, workerID: configuration.workerID, detail: detail,
                            update: JobStore.Update(parts: parts, errorCode: error?.0, errorMessage: error?.1))
        } catch let error as JobStore.LeaseLost {
            logger.warning("another worker took the job over; its end is theirs to record", ["error": .string("\(error)")])
        } catch {
            logger.error("could not record the end of the job", ["error": .string("\(error)")])
        }
    }

    private func sendStop(_ id: UUID, reason: String) {
        lock.lock()
        defer { lock.unlock() }
        guard var entry = running[id], entry.stopSentAt == nil else { return }
        entry.stopSentAt = Date()
        running[id] = entry
        entry.process.signal(SIGTERM)
        logger.info("stopping the pipeline", ["jobId": .string(id.uuidString.lowercased()), "reason": .string(reason)])
    }

    /// Renews the lease of every job this worker holds, stores progress, and acts on what the
    /// database says: a stop request (even one whose NOTIFY was missed), or a lease lost.
    private func heartbeat() {
        lock.lock()
        let entries = running.map { ($0.key, $0.value.progress as JobProgress?, $0.value.process as Subprocess?) }
            + preparing.keys.map { ($0, nil as JobProgress?, nil as Subprocess?) }
            + uploading.keys.map { ($0, nil as JobProgress?, nil as Subprocess?) }
        lock.unlock()
        for (id, progress, process) in entries {
            do {
                switch try store.heartbeat(jobID: id, workerID: configuration.workerID, lease: configuration.lease, progress: progress) {
                case .held:
                    break
                case .stopRequested:
                    sendStop(id, reason: "stop requested")
                case .lost:
                    // Another worker owns the job now: this copy must not go on.
                    logger.warning("lost the lease; stopping work on the job", ["jobId": .string(id.uuidString.lowercased())])
                    lock.lock()
                    running[id] = nil
                    if preparing[id] != nil { preparing[id] = false }
                    if uploading[id] != nil { uploading[id] = false }
                    lock.unlock()
                    process?.signal(SIGKILL)
                    process?.wait()
                }
            } catch {
                logger.error("heartbeat failed", ["jobId": .string(id.uuidString.lowercased()), "error": .string("\(error)")])
            }
        }
    }

    /// Stops taking jobs; each child finishes its part; the jobs are handed back.
    private func shutDown() {
        stopping.store(true, ordering: .relaxed)
        lock.lock()
        for id in running.keys {
            running[id]?.handingBack = true
            if running[id]?.stopSentAt == nil {
                running[id]?.stopSentAt = Date()
                running[id]?.process.signal(SIGTERM)
            }
        }
        let ids = Array(running.keys)
        lock.unlock()
        logger.info("worker stopping; handing back its jobs", ["jobs": .of(ids.count)])
        let deadline = Date().addingTimeInterval(60)
        while count > 0 && Date() < deadline {
            pollChildren()
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// A summary of each transcript in `parts` (`JobSummarizer`).
    private func summarize(parts: [JobPart], request: SummaryRequest, shouldStop: () -> Bool, logger: Logger) -> SummaryStatus {
        let summarizer = JobSummarizer(endpoint: configuration.summaryEndpoint, storageRoot: configuration.storage, logger: logger)
        let status = summarizer.run(parts: parts, request: request, shouldStop: shouldStop)
        if let error = status.error { logger.warning("no summary", ["error": .string(error)]) }
        return status
    }

    // MARK: - Files

    /// Size, duration and picture size of a finished part.
    static func describe(_ part: JobPart, storage: String) -> JobPart {
        var described = part
        if let info = OutputPart.describe(part.kind, at: storage + "/" + part.path) {
            described.size = info.size
            described.duration = info.duration
            described.width = info.width
            described.height = info.height
        }
        return described
    }
}
