@testable import RoomServer
import Rooms
import Synchronization
import Testing
import Transport

/// Signalling work reaches the loop in turns: a connection's backlog does not hold another's
/// message up beyond one turn, and each connection's work keeps its order.
@Suite struct SignalingTurnsTests {
    @Test func aBacklogHoldsAnotherConnectionUpByOneTurnOnly() throws {
        let loop = try EventLoop(name: "turns test")
        loop.start()
        defer { loop.stop() }
        let turns = SignalingTurns(loop: loop, perTurn: 4)
        let ran = Mutex<[String]>([])
        let flooding = ConnectionID(1), quiet = ConnectionID(2)
        // The loop is held until the whole backlog is queued, so the first turn sees all of it.
        let held = Atomic<Bool>(true)
        loop.post { while held.load(ordering: .acquiring) {} }
        for index in 0..<200 { turns.enqueue(flooding) { ran.withLock { $0.append("flood \(index)") } } }
        for index in 0..<3 { turns.enqueue(quiet) { ran.withLock { $0.append("quiet \(index)") } } }
        held.store(false, ordering: .releasing)
        let deadline = EventLoop.now() + 10
        var order: [String] = []
        while order.count < 203, EventLoop.now() < deadline {
            order = try loop.sync { ran.withLock { $0 } }
        }
        #expect(order.count == 203)
        #expect(order.firstIndex(of: "quiet 2") == 6, "\(order.prefix(8))")
        #expect(order.filter { $0.hasPrefix("flood") } == (0..<200).map { "flood \($0)" })
        #expect(order.filter { $0.hasPrefix("quiet") } == ["quiet 0", "quiet 1", "quiet 2"])
    }

    /// A connection's last work (its disconnection) has its whole queue run in the next turn:
    /// a member who reconnects must find the old connection gone, not waiting its turns.
    @Test func aConnectionsLastWorkRunsItsWholeQueueInTheNextTurn() throws {
        let loop = try EventLoop(name: "turns test")
        loop.start()
        defer { loop.stop() }
        let turns = SignalingTurns(loop: loop, perTurn: 4)
        let ran = Mutex<[String]>([])
        let old = ConnectionID(1), new = ConnectionID(2)
        let held = Atomic<Bool>(true)
        loop.post { while held.load(ordering: .acquiring) {} }
        for index in 0..<20 { turns.enqueue(old) { ran.withLock { $0.append("old \(index)") } } }
        turns.enqueue(old, isLast: true) { ran.withLock { $0.append("old gone") } }
        turns.enqueue(new) { ran.withLock { $0.append("new join") } }
        held.store(false, ordering: .releasing)
        let deadline = EventLoop.now() + 10
        var order: [String] = []
        while order.count < 22, EventLoop.now() < deadline {
            order = try loop.sync { ran.withLock { $0 } }
        }
        #expect(order.count == 22)
        #expect(order.firstIndex(of: "old gone") == 20 && order.last == "new join", "\(order.suffix(3))")
    }
}
