import Foundation
import JobSpec
import Log
import Platform

/// One composite for many jobs (issue 26 item 7; docs/JOBS.md, "One composite for many jobs"):
/// a recording, an HLS stream and a livestream of one room with the same layout run in one
/// child, which receives, decodes, composites and encodes once; each job keeps its own state,
/// outputs, pause, limits, stop and failure.
extension Worker {
    /// Every child running now, once each. Call with `lock` held.
    var children: [RunChild] {
        var seen = Set<ObjectIdentifier>()
        return running.values.map(\.child).filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The jobs a child carries that are not on their way out. Call with `lock` held.
    func staying(in child: RunChild) -> [UUID] {
        running.filter { $0.value.child === child && $0.value.stopSentAt == nil && !$0.value.detached }.map(\.key)
    }

    /// Hands `spec`'s job to a child that already records its room the same way, if there is
    /// one and it takes the line; nil: the job gets a child of its own.
    func join(_ spec: PipelineSpec, job: Job, logger: Logger) -> RunChild? {
        guard spec.canShareComposite else { return nil }
        lock.lock()
        let candidates = children.filter { child in
            guard child.terminatedAt == nil, let composite = child.composite, composite.sharesComposite(with: spec) else { return false }
            return !staying(in: child).isEmpty
        }
        lock.unlock()
        for child in candidates where child.isReading {
            do {
                try controlWriting.withLock { _ throws(SubprocessError) in try child.send(.attach(spec)) }
                logger.info("joined the run of another job of the room", ["hostJobId": .string(child.host.uuidString.lowercased()),
                                                                          "pid": .of(child.process.pid)])
                return child
            } catch {
                logger.warning("could not join a run of the room; starting one", ["error": .string("\(error)")])
            }
        }
        return nil
    }

    /// Lets one job go from a child that carries others (its outputs finish, theirs go on), or
    /// ends the child when it carries no other. Called without `lock`: the line is written
    /// outside it, so a run slow to read holds up no other job.
    func letGo(_ id: UUID, of child: RunChild, reason: String) {
        lock.lock()
        let others = staying(in: child).contains { $0 != id }
        lock.unlock()
        if others {
            do {
                try controlWriting.withLock { _ throws(SubprocessError) in try child.send(.detach(job: id.uuidString.lowercased())) }
                logger.info("letting the job go from a run that carries others", ["jobId": .string(id.uuidString.lowercased()), "reason": .string(reason)])
                return
            } catch {
                logger.warning("could not tell the run to let the job go; ending the run", ["jobId": .string(id.uuidString.lowercased()),
                                                                                           "error": .string("\(error)")])
            }
        }
        lock.lock()
        let terminate = child.terminatedAt == nil
        if terminate { child.terminatedAt = Date() }
        lock.unlock()
        if terminate { child.process.signal(SIGTERM) }
    }

    /// The key of a layout and theme, for counting a child's composites.
    static func shown(_ layout: LayoutSettings, _ theme: ThemeName) -> String {
        "\(layout.type.rawValue) \(layout.priority.rawValue) \(layout.gridSize) \(theme.rawValue)"
    }

    /// A job the run refused (or whose child ended before taking it) runs on its own, in this attempt.
    func runAlone(_ entry: Running, why: String) {
        logger(for: entry).warning("the job did not join the run of its room; it runs on its own", ["why": .string(why)])
        _ = try? store.note("attempt \(entry.job.attempts): did not join the run of its room (\(why)); it runs on its own", jobID: entry.job.id,
                            workerID: configuration.workerID)
        start(JobStore.Claim(job: entry.job, previousWorker: nil), mayJoin: false)
    }
}
