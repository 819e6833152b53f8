import Foundation
import JobSpec
import Log
import Outputs
import Platform

/// The children running jobs: their events, their ends.
extension Worker {
    func pollChildren() {
        lock.lock()
        let children = self.children
        lock.unlock()
        for child in children {
            read(child)
            // A child asked to stop that does not, in time, is killed; its parts are repaired.
            lock.lock()
            let terminatedAt = child.terminatedAt
            lock.unlock()
            if let sent = terminatedAt, Date().timeIntervalSince(sent) > 30 { child.process.signal(SIGKILL) }
            guard let termination = child.process.poll() else { continue }
            // What the child wrote between the read above and its end (its last progress, an
            // output that failed as it stopped) is in the pipe still.
            read(child)
            lock.lock()
            let ended = running.filter { $0.value.child === child }
            for id in ended.keys { running[id] = nil }
            lock.unlock()
            for entry in ended.values {
                // A job handed to the child that it never took runs on its own.
                if !entry.acknowledged {
                    runAlone(entry, why: "its run ended (\(termination)) before it took the job")
                } else {
                    completed(entry, termination: termination, logger: logger(for: entry))
                }
            }
        }
    }

    func logger(for entry: Running) -> Logger {
        logger.with(["jobId": .string(entry.job.idText), "attempt": .of(entry.job.attempts)])
    }

    /// Acts on what a child reported, each event for the job it names (an event that names none
    /// is the job the child was started for); a job that left the run is finished now.
    private func read(_ child: RunChild) {
        let reports = child.events.readAvailable()
        if child.events.unreadable > child.unreadableLogged {
            child.unreadableLogged = child.events.unreadable
            logger.warning("the pipeline sent lines that are not events", ["count": .of(child.unreadableLogged), "pid": .of(child.process.pid),
                                                                           "error": .string(child.events.lastProblem ?? "")])
        }
        for report in reports {
            // An event names its job, or is the job the child was started for.
            guard let id = report.job.map({ UUID(uuidString: $0) }) ?? child.host else {
                logger.warning("the pipeline reported about a job it does not name rightly", ["job": .string(report.job ?? "")])
                continue
            }
            lock.lock()
            // The heartbeat thread may have dropped the job meanwhile (its lease was lost).
            guard var entry = running[id], entry.child === child else {
                lock.unlock()
                continue
            }
            lock.unlock()
            handle(report.event, of: &entry, logger: logger(for: entry))
            lock.lock()
            guard let current = running[id] else {
                lock.unlock()
                continue
            }
            entry.stopSentAt = current.stopSentAt
            entry.handingBack = current.handingBack
            // `sendControls` may have handed the run a newer version meanwhile.
            entry.controlsSent = current.controlsSent
            if case .detached = report.event {
                entry.detached = true
                running[id] = nil
            } else {
                running[id] = entry
            }
            lock.unlock()
            if entry.detached {
                if entry.acknowledged {
                    completed(entry, termination: .exited(0), logger: logger(for: entry))
                } else {
                    runAlone(entry, why: "its run refused it")
                }
            }
        }
    }

    /// The most layout lines one attempt adds to its job's events: a room where people come and
    /// go all day stays readable, and nobody can fill the table by toggling a camera.
    static let maximumLayoutNotes = 500

    /// Acts on what a run reported: its state, its progress, and lines for the job's events.
    func handle(_ event: JobRunEvent, of entry: inout Running, logger: Logger) {
        let id = entry.job.id
        switch event {
        case .started where !entry.reportedStarted:
            entry.reportedStarted = true
            _ = try? store.apply(.started, to: id, workerID: configuration.workerID, detail: "attempt \(entry.job.attempts) started")
        case .started:
            break
        case .playable:
            _ = try? store.apply(.playable, to: id, workerID: configuration.workerID, detail: "three segments published")
        case .progress(let progress):
            entry.progress = progress
            // Bytes written mean it started, even if a full pipe dropped the `started` line.
            if progress.bytes > 0 && !entry.reportedStarted {
                entry.reportedStarted = true
                _ = try? store.apply(.started, to: id, workerID: configuration.workerID, detail: "attempt \(entry.job.attempts) started")
            }
        case .outputFailed(let output, let error):
            logger.warning("an output failed", ["output": .string(output), "error": .string(error)])
            _ = try? store.note("attempt \(entry.job.attempts): output \(output) failed: \(error.prefix(300))", jobID: id,
                                workerID: configuration.workerID)
        case .limitReached(let limit):
            entry.limit = limit
            logger.info("the run stops on its own", ["reason": .string(limit.reason(for: entry.job.kind))])
            _ = try? store.note("attempt \(entry.job.attempts): \(limit.reason(for: entry.job.kind))", jobID: id, workerID: configuration.workerID)
        case .layout(let tiles, let at):
            guard entry.layoutNotes <= Worker.maximumLayoutNotes else { return }
            entry.layoutNotes += 1
            let detail = entry.layoutNotes > Worker.maximumLayoutNotes
                ? "attempt \(entry.job.attempts): more layout changes than \(Worker.maximumLayoutNotes); the rest are not listed"
                : "attempt \(entry.job.attempts): \(LayoutNote.text(tiles, at: at))"
            _ = try? store.note(detail, jobID: id, workerID: configuration.workerID)
        case .paused(let at):
            logger.info("the run paused", ["at": .double(at)])
            try? store.notePause(true, detail: "attempt \(entry.job.attempts): paused at \(String(format: "%.2f s", at)) of the recording", jobID: id,
                                 workerID: configuration.workerID)
        case .resumed(let at, let pausedFor):
            logger.info("the run resumed", ["at": .double(at), "pausedFor": .double(pausedFor)])
            try? store.notePause(false, detail: "attempt \(entry.job.attempts): resumed at \(String(format: "%.2f s", at)) of the recording after "
                                 + "\(String(format: "%.2f s", pausedFor)) paused", jobID: id, workerID: configuration.workerID)
        case .layoutChanged(let layout, let theme, let at):
            _ = try? store.note("attempt \(entry.job.attempts): layout \(layout.type.rawValue) (\(layout.priority.rawValue), gridSize \(layout.gridSize)), "
                                + "theme \(theme.rawValue) from \(String(format: "%.2f s", at))", jobID: id, workerID: configuration.workerID)
        case .detached:
            logger.info("the job left the run; its outputs are finished")
        case .configured(let spec):
            entry.acknowledged = true
            // What this attempt runs, as the run itself read it: for people and tests.
            do {
                try spec.redacted.write(to: entry.pipeline)
            } catch {
                logger.warning("could not keep the attempt's pipeline", ["error": .string("\(error)")])
            }
        }
    }

    func completed(_ entry: Running, termination: Subprocess.Termination, logger: Logger) {
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
            // A run that stopped at a limit ends STOPPED with its reason (and 5004–5006 for the
            // maximum duration) in the job's view and its webhook; nothing else changes. The
            // run reports a limit only when no stop was asked for before it, so a stop that
            // follows (the room's session ending as the recorder leaves) does not hide it.
            let ending = entry.limit
            finishRecorded(entry.job, parts: parts, detail: ending.map { $0.reason(for: entry.job.kind) } ?? "attempt \(entry.job.attempts) finished",
                           logger: logger, ended: ending.map { ($0.code(for: entry.job.kind), $0.reason(for: entry.job.kind)) })
        } else {
            let tail = ((try? String(contentsOfFile: entry.log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3).joined(separator: " | ")
            finish(entry.job.id, event: .failed, parts: parts, detail: "the pipeline ended: \(termination)", logger: logger,
                   error: (entry.job.kind.failureCode, "the pipeline ended with \(termination): \(tail.suffix(400))"))
        }
    }
}
