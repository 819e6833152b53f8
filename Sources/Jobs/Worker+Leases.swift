import Foundation
import JobSpec
import Log
import Outputs
import Platform
import Synchronization

/// Leases and stops: what the database says of the jobs this worker holds.
extension Worker {
    func sendStop(_ id: UUID, reason: String) {
        lock.lock()
        guard var entry = running[id], entry.stopSentAt == nil, !entry.detached else {
            lock.unlock()
            return
        }
        entry.stopSentAt = Date()
        running[id] = entry
        lock.unlock()
        logger.info("stopping the pipeline", ["jobId": .string(id.uuidString.lowercased()), "reason": .string(reason)])
        letGo(id, of: entry.child, reason: reason)
    }

    /// Renews the lease of every job this worker holds, stores progress, and acts on what the
    /// database says: a stop request (even one whose NOTIFY was missed), or a lease lost.
    func heartbeat() {
        lock.lock()
        let entries = running.map { ($0.key, $0.value.progress as JobProgress?, $0.value.child as RunChild?) }
            + preparing.keys.map { ($0, nil as JobProgress?, nil as RunChild?) }
            + uploading.keys.map { ($0, nil as JobProgress?, nil as RunChild?) }
        lock.unlock()
        for (id, progress, child) in entries {
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
                    // A run that carries other jobs (even ones finishing) lets this one go; one
                    // that carries only it is killed.
                    let others = child.map { child in running.contains { $0.key != id && $0.value.child === child && !$0.value.detached } } ?? false
                    running[id] = nil
                    if preparing[id] != nil { preparing[id] = false }
                    if uploading[id] != nil { uploading[id] = false }
                    lock.unlock()
                    if others, let child {
                        letGo(id, of: child, reason: "lease lost")
                    } else {
                        child?.process.signal(SIGKILL)
                        child?.process.wait()
                    }
                }
            } catch {
                logger.error("heartbeat failed", ["jobId": .string(id.uuidString.lowercased()), "error": .string("\(error)")])
            }
        }
        // A control whose NOTIFY was missed (the listening connection was down) still reaches
        // the run.
        lock.lock()
        let sent = running.filter(\.value.readsControls).mapValues(\.controlsSent)
        lock.unlock()
        guard let versions = try? store.controlVersions(Array(sent.keys)) else { return }
        for (id, version) in versions where version > sent[id] ?? 0 { sendControls(id) }
    }

    /// Hands a running job's run the job's wanted state (`JobControl`) when it has a version the
    /// run has not had. A run that has gone meanwhile is left to `pollChildren`.
    func sendControls(_ id: UUID) {
        guard let job = try? store.job(id) else { return }
        lock.lock()
        let entry = running[id]
        lock.unlock()
        guard let entry, entry.readsControls, job.controlVersion > entry.controlsSent, !entry.detached else { return }
        var control = job.control(storage: configuration.storage)
        control.job = job.idText
        let child = entry.child
        // A run that has stopped reading (its input full) is passed over at once, and tried
        // again by the next heartbeat: it must not hold up the worker's other jobs.
        guard child.isReading else {
            logger.warning("the run is not reading its controls; they wait for the next heartbeat",
                           ["jobId": .string(job.idText), "version": .of(control.version)])
            return
        }
        do {
            // Outside the lock: the run reads its controls on a thread of its own. A line it
            // has not taken within 2 s is given up and sent again by the next heartbeat.
            try controlWriting.withLock { _ throws(SubprocessError) in try child.send(.control(control)) }
            lock.lock()
            if let sent = running[id]?.controlsSent { running[id]?.controlsSent = max(sent, control.version) }
            running[id]?.shown = Worker.shown(control.layout, control.theme)
            lock.unlock()
            logger.info("sent the run its controls", ["jobId": .string(job.idText), "version": .of(control.version), "paused": .bool(control.paused),
                                                       "layout": .string(control.layout.type.rawValue), "theme": .string(control.theme.rawValue)])
        } catch {
            logger.warning("could not send the run its controls", ["jobId": .string(job.idText), "error": .string("\(error)")])
        }
    }

    /// Stops taking jobs; each child finishes its part; the jobs are handed back.
    func shutDown() {
        stopping.store(true, ordering: .relaxed)
        lock.lock()
        for id in running.keys {
            running[id]?.handingBack = true
            if running[id]?.stopSentAt == nil { running[id]?.stopSentAt = Date() }
        }
        for child in children where child.terminatedAt == nil {
            child.terminatedAt = Date()
            child.process.signal(SIGTERM)
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
}
