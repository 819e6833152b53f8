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
        /// The process running it, which may run other jobs of its room too.
        var child: RunChild
        var parts: [JobPart]
        /// Layout lines added to the job's events (at most `maximumLayoutNotes` an attempt).
        var layoutNotes = 0
        /// Where the run's pipeline, as it reported it (no secrets), is kept for people to read.
        var pipeline: String
        var progress: JobProgress?
        var stopSentAt: Date?
        var reportedStarted = false
        var handingBack = false
        /// The limit the run said it stopped at (`limitReached`).
        var limit: JobStopLimit?
        /// Whether the run reads controls, and the newest version handed to it.
        var readsControls = false
        var controlsSent = 0
        /// The run said the job has left it (`detached`): its outputs are finished.
        var detached = false
        /// The run has taken the job (its `configured` event): always so for the job a child was
        /// started for; a job handed to a running child waits for it, and one the run refuses,
        /// or whose child ends first, runs on its own instead.
        var acknowledged = true
        /// The layout and theme it shows (its config's, then its controls'): a child costs a
        /// composite for each one its jobs show.
        var shown: String = ""

        var log: String { child.log }
    }

    public let configuration: Configuration
    public let store: JobStore
    let logger: Logger
    var running: [UUID: Running] = [:]
    /// Jobs claimed and not yet running (their earlier parts are being repaired): their leases
    /// are renewed too, and a lease lost meanwhile stops them from starting.
    var preparing: [UUID: Bool] = [:]
    /// Jobs whose files are being uploaded (true while this worker still holds them).
    var uploading: [UUID: Bool] = [:]
    let stopping = Atomic<Bool>(false)
    let uploads: UploadStore
    let objectStorage: S3Client?
    let lock = NSLock()
    /// Held while a control line is written, so the run loop and the heartbeat thread never
    /// interleave two lines on one child's input.
    let controlWriting = Mutex(())
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
        let listener = PostgresListener(connectionString: store.pool.connectionString,
                                        channels: [JobStore.jobsChannel, JobStore.stopChannel, JobStore.controlChannel], logger: logger)
        while !shouldStop() {
            // Children's events wake the loop at once; a second is for the ends nobody reports.
            var wait: Double = count > 0 ? 1 : 5
            do {
                while count < configuration.maxJobs,
                      let claim = try store.claim(workerID: configuration.workerID, lease: configuration.lease, budget: budget)
                {
                    start(claim)
                }
                pollChildren()
                if let expiry = try leaseExpiry() { wait = min(wait, expiry.timeIntervalSinceNow + 0.05) }
            } catch {
                logger.error("worker loop error; retrying", ["error": .string("\(error)")])
                wait = 1
            }
            for notification in listener.wait(timeout: max(0.01, wait), orReadable: eventDescriptors) {
                guard let id = UUID(uuidString: notification.payload) else { continue }
                switch notification.channel {
                case JobStore.stopChannel: sendStop(id, reason: "stop requested")
                case JobStore.controlChannel: sendControls(id)
                default: break
                }
            }
        }
        shutDown()
    }

    /// The pipes of the running children, to wake on.
    private var eventDescriptors: [Int32] {
        lock.lock()
        defer { lock.unlock() }
        return children.compactMap(\.events.descriptor)
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return running.count + preparing.count + uploading.count
    }

    /// The cores the running jobs take (`JobCost`); uploads take next to none.
    public var cpuLoad: Double {
        lock.lock()
        defer { lock.unlock() }
        // A child that carries several jobs costs a composite for each layout they show, and a
        // little for each other job's outputs.
        return children.reduce(0) { total, child in
            let jobs = running.values.filter { $0.child === child }
            var composites: [String: Double] = [:]
            for entry in jobs { composites[entry.shown] = max(composites[entry.shown] ?? 0, JobCost.of(entry.job)) }
            return total + composites.values.reduce(0, +) + Double(max(0, jobs.count - composites.count)) * JobCost.joining
        }
    }

    /// What a claim may cost now: the cores left, or anything when nothing runs.
    private var budget: Double? {
        let load = cpuLoad
        return load == 0 ? nil : configuration.maxCPU - load
    }

    /// The next expiry of a lease held by another worker, checked every few seconds.
    func leaseExpiry() throws -> Date? {
        if Date() >= nextLeaseCheck {
            otherLeaseExpiry = try store.nextLeaseExpiry(excluding: configuration.workerID)
            nextLeaseCheck = Date().addingTimeInterval(2)
        }
        guard let expiry = otherLeaseExpiry, expiry > Date().addingTimeInterval(-1) else { return nil }
        return expiry
    }

    // MARK: - Starting

    /// `mayJoin`: false for a job a run refused, which gets a child of its own.
    func start(_ claim: JobStore.Claim, mayJoin: Bool = true) {
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
        let logPath = "\(directory)/attempt-\(job.attempts).log"
        let specPath = "\(directory)/attempt-\(job.attempts).spec.json"
        var plan = JobPlan(job: job, source: source, storage: configuration.storage, eventsDescriptor: Subprocess.reportDescriptor, parentPID: getpid(),
                           objectStorage: configuration.objectStorage, earlierParts: parts)
        parts += plan.parts
        do {
            try store.setParts(jobID: job.id, workerID: configuration.workerID, parts: parts)
            job.parts = parts
            for part in plan.parts {
                let path = configuration.storage + "/" + part.path
                try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                        withIntermediateDirectories: true)
            }
            let pipelinePath = "\(directory)/attempt-\(job.attempts).pipeline.json"
            let readsControls = plan.spec.controlsOnStandardInput == true
            // A job of a room this worker already records the same way joins that run.
            if mayJoin, let child = join(plan.spec, job: job, logger: jobLogger) {
                // Where this attempt's log is, for people who look in the job's directory.
                _ = FileManager.default.createFile(atPath: logPath, contents: Data(
                    "this attempt runs in the run of job \(child.host.uuidString.lowercased()), which records its room the same way: its log is \(child.log)\n".utf8))
                lock.lock()
                running[job.id] = Running(job: job, child: child, parts: parts, pipeline: pipelinePath, readsControls: readsControls,
                                          acknowledged: false, shown: Worker.shown(job.config.layout, job.config.theme))
                lock.unlock()
                if job.controlVersion > 0 { sendControls(job.id) }
                return
            }
            if !mayJoin {
                // The line this attempt's log got when it was handed to a run that then did not
                // take it would say the wrong thing now.
                _ = FileManager.default.createFile(atPath: logPath, contents: Data(
                    "this attempt did not join the run of its room; it runs on its own:\n".utf8))
            }
            plan.spec.hostsJobs = plan.spec.canShareComposite ? true : nil
            try plan.spec.write(to: specPath)
            let arguments = ["record", "--spec", specPath, "--log-format", "json", "--log-level", "info"]
            let process = try Subprocess(configuration.executable, arguments, environment: childEnvironment, standardInput: readsControls ? .pipe : .null,
                                         standardOutput: .file(logPath), standardError: .file(logPath), reportPipe: true)
            let child = RunChild(process: process, host: job.id, log: logPath, composite: plan.spec.hostsJobs == true ? plan.spec : nil)
            lock.lock()
            running[job.id] = Running(job: job, child: child, parts: parts, pipeline: pipelinePath, readsControls: readsControls,
                                      shown: Worker.shown(job.config.layout, job.config.theme))
            lock.unlock()
            jobLogger.info("pipeline started", ["pid": .of(process.pid), "takesOtherJobs": .bool(child.composite != nil)])
            // A job paused, or given a new layout, before this attempt starts as it is now.
            if job.controlVersion > 0 { sendControls(job.id) }
        } catch {
            finish(job.id, event: .failed, parts: parts, detail: "could not start the pipeline", logger: jobLogger,
                   error: (job.kind.failureCode, "could not start the pipeline: \(error)"))
        }
    }

    /// Repairs what earlier attempts left unfinished: a killed MP4 becomes faststart, a killed
    /// HLS playlist is ended. A part whose attempt ended before it wrote anything is dropped.
    func finishEarlierParts(_ parts: [JobPart], logger: Logger) -> [JobPart] {
        parts.compactMap { part in
            guard part.status == .writing else { return part }
            var fixed = part
            switch OutputPart.finishAbandoned(part.kind, at: configuration.storage + "/" + part.path) {
            case .nothingRecorded:
                logger.info("an attempt ended before it recorded anything", ["part": .string(part.path)])
                return nil
            case .repaired(let kept):
                fixed.status = .repaired
                // Kept: an MP4's whole fragments, or a per-participant recording's files.
                logger.info("repaired the part an earlier attempt left", ["part": .string(part.path), "kept": .of(kept)])
            case .complete:
                fixed.status = .complete
            case .lost(let why):
                fixed.status = .lost
                logger.warning("an earlier part could not be repaired", ["part": .string(part.path), "error": .string(why)])
            }
            return Worker.describe(fixed, storage: configuration.storage)
        }
    }
}
