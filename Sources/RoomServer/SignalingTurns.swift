import Rooms
import Synchronization
import Transport

/// Signalling work on its way to the RTC loop, taken in turns: each connection's messages run
/// in the order they came, at most `perTurn` of them each time the loop takes the queue, so a
/// member with a backlog (the gateway lets one send 200 at once, and 200 members can each do
/// it) holds the others up by a few messages each, not by the whole backlog. One queue for the
/// loop, posted once while it has work.
///
/// A connection with a short queue (every well-behaved one) still has all of it run before the
/// datagrams the same poll read, as `EventLoop` promises for posted work (a `leave` before its
/// DTLS close_notify). A connection's last work (its disconnection) has the whole queue run in
/// the next turn, so a member who reconnects is not refused as a duplicate while the old
/// connection's backlog waits its turns.
final class SignalingTurns: Sendable {
    private struct State {
        var queues: [ConnectionID: [@Sendable () -> Void]] = [:]
        /// Connections with work, in the order their turns come.
        var order: [ConnectionID] = []
        /// Connections whose last work is queued: the next turn runs all of their queue.
        var ending: Set<ConnectionID> = []
        /// A turn is posted to the loop and has not yet taken its batch.
        var posted = false
    }

    private let state = Mutex(State())
    private let loop: EventLoop
    private let perTurn: Int

    init(loop: EventLoop, perTurn: Int = 4) {
        self.loop = loop
        self.perTurn = max(1, perTurn)
    }

    /// Queues `work` behind whatever `connection` queued before it; `isLast`: the connection's
    /// last (its disconnection), and all of its queue runs in the next turn.
    func enqueue(_ connection: ConnectionID, isLast: Bool = false, _ work: @escaping @Sendable () -> Void) {
        let post = state.withLock { state -> Bool in
            if state.queues[connection] == nil { state.order.append(connection) }
            state.queues[connection, default: []].append(work)
            if isLast { state.ending.insert(connection) }
            guard !state.posted else { return false }
            state.posted = true
            return true
        }
        if post { loop.post { [self] in runTurn() } }
    }

    /// On the loop: one turn for each connection with work, then another turn is posted if any is
    /// left, so the loop reads its datagrams between turns.
    private func runTurn() {
        let (batch, more) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
            var batch: [@Sendable () -> Void] = []
            var next: [ConnectionID] = []
            for connection in state.order {
                guard let queued = state.queues[connection] else { continue }
                let taken = state.ending.remove(connection) != nil ? queued.count : min(perTurn, queued.count)
                batch += queued[..<taken]
                if taken == queued.count {
                    state.queues[connection] = nil
                } else {
                    state.queues[connection] = Array(queued[taken...])
                    next.append(connection)
                }
            }
            state.order = next
            state.posted = !next.isEmpty
            return (batch, !next.isEmpty)
        }
        for work in batch { work() }
        if more { loop.post { [self] in runTurn() } }
    }
}
