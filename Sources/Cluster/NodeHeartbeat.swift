import Foundation
import Log
import Synchronization

/// A node's membership of the cluster: registers its row, then every 2 s writes its heartbeat
/// with its load (from `load`, and the process's CPU since the last beat), sweeps what dead
/// nodes left, tells `onStateChanged` when an operator set it DRAINING (`revue nodes drain`),
/// and gives `onCluster` the cluster's nodes as they are now (the doors a client may rejoin
/// through). A row that vanished (the node was paused for over an hour and forgotten) is
/// written again.
///
/// Concurrency: one thread of its own; `load`, `onStateChanged` and `onCluster` are called on it.
public final class NodeHeartbeat: Sendable {
    public let store: NodeStore
    public let node: Node
    private let load: @Sendable () -> NodeLoad
    private let onStateChanged: @Sendable (Node) -> Void
    private let onCluster: @Sendable ([Node]) -> Void
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    private let started = Atomic<Bool>(false)
    private let logger = Logger(label: "cluster")
    private let last = Mutex<Node?>(nil)

    public init(store: NodeStore, node: Node, load: @escaping @Sendable () -> NodeLoad, onStateChanged: @escaping @Sendable (Node) -> Void = { _ in },
                onCluster: @escaping @Sendable ([Node]) -> Void = { _ in })
    {
        self.store = store
        self.node = node
        self.load = load
        self.onStateChanged = onStateChanged
        self.onCluster = onCluster
    }

    /// Registers the node and starts beating.
    public func start() throws(ClusterError) {
        try store.register(node)
        logger.info("joined the cluster", ["nodeId": .string(node.id), "url": .string(node.url), "rtc": .string(node.rtcAddress),
                                           "region": .string(node.region)])
        started.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            run()
            ended.signal()
        }
        thread.name = "node heartbeat"
        thread.start()
    }

    /// The node's row as the last heartbeat read it.
    public var current: Node? { last.withLock { $0 } }

    /// Stops beating (the row stays: `NodeStore.remove` takes it out when the node leaves).
    public func stop() {
        guard started.load(ordering: .acquiring), !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        ended.wait()
    }

    private func run() {
        var cpuBefore = Self.processCPU()
        var wallBefore = Date()
        var state = node.state
        while !stopped.load(ordering: .acquiring) {
            let now = Date()
            let cpuNow = Self.processCPU()
            var current = load()
            current.cpu = max(0, (cpuNow - cpuBefore) / max(0.001, now.timeIntervalSince(wallBefore)))
            (cpuBefore, wallBefore) = (cpuNow, now)
            do {
                if let row = try store.heartbeat(node.id, load: current) {
                    last.withLock { $0 = row }
                    if row.state != state {
                        state = row.state
                        logger.info("the node's state changed", ["nodeId": .string(node.id), "state": .string(row.state.rawValue)])
                        onStateChanged(row)
                    }
                } else {
                    logger.warning("the node's row was gone; writing it again", ["nodeId": .string(node.id)])
                    try store.register(node)
                }
                onCluster(try store.nodes())
                let sweep = try store.sweepDeadNodes()
                if !sweep.deadNodes.isEmpty {
                    logger.warning("cleared what dead nodes left", ["nodes": .string(sweep.deadNodes.joined(separator: ",")),
                                                                   "placements": .of(sweep.placementsRemoved), "sessions": .of(sweep.sessionsEnded)])
                }
            } catch {
                logger.error("heartbeat failed", ["nodeId": .string(node.id), "error": .string(error.description)])
            }
            // Sleeps in short steps so a stop is quick.
            let next = now.addingTimeInterval(Node.heartbeatInterval)
            while !stopped.load(ordering: .acquiring) && Date() < next { Thread.sleep(forTimeInterval: 0.1) }
        }
    }

    /// CPU seconds (user + system) of this process.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
