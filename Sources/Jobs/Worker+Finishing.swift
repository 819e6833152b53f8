import Foundation
import JobSpec
import Log
import Outputs
import Platform

/// The end of a job whose recording is over: its transcript, its summary, its uploads, its final state.
extension Worker {
    /// Ends a job whose recording is over: makes its transcript when one was asked for, uploads
    /// its files when it has any to upload (on a thread of its own, the lease renewed by the
    /// heartbeat), then STOPPED, or FAILED with the upload's reason and the local files kept. A
    /// transcript that fails says so in its own state and never fails the recording.
    /// `ended`: why a job that stopped on its own did (its code, if any, and reason), recorded
    /// with its end.
    func finishRecorded(_ job: Job, parts: [JobPart], detail: String, logger: Logger, ended: (Int?, String)? = nil) {
        // A live transcription job's `transcription` is its settings: its child wrote the
        // transcript of what it heard; a summary of it is made here when asked for.
        let wantsTranscript = job.kind != .transcription && (job.transcription.map { $0.state == .waiting || $0.state == .started } ?? false)
        let heardLive = job.kind == .transcription && job.transcription != nil
        guard wantsTranscript || heardLive || JobUploader.hasWork(job, parts: parts, storageConfigured: objectStorage != nil) else {
            finish(job.id, event: .finished, parts: parts, detail: detail, logger: logger, error: ended)
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
                finish(id, event: .finished, parts: uploaded, detail: uploadsFiles ? "\(detail); files uploaded" : detail, logger: logger,
                       error: ended)
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
    func handBack(_ id: UUID, parts: [JobPart], logger: Logger, what: String) {
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

    func finish(_ id: UUID, event: JobStateMachine.Event, parts: [JobPart], detail: String, logger: Logger,
                        error: (Int?, String)? = nil)
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

    /// A summary of each transcript in `parts` (`JobSummarizer`).
    func summarize(parts: [JobPart], request: SummaryRequest, shouldStop: () -> Bool, logger: Logger) -> SummaryStatus {
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
