import Foundation
import JobSpec
import Jobs
import Log
import Postgres
import Rooms
import Signaling
import Synchronization

/// Tells the people in a room what its jobs are doing. Workers (on any machine) change job
/// states in PostgreSQL; each change writes a `room_job_states` row in the same transaction as
/// its webhooks (`JobStore`). This thread LISTENs for them, reads the rows after the last one it
/// sent, oldest first, and hands each to the registry on the RTC loop, so participants see the
/// same changes in the same order as the webhook receiver.
// @unchecked Sendable: `thread` confined to the owner's thread (start, stop); the relay thread uses `let`s and Atomic `stopped`
final class JobStateRelay: @unchecked Sendable {
    private let store: JobStore
    private let deliver: @Sendable (RoomJobState) -> Void
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private let logger = Logger(label: "rooms")
    /// How long the rows are kept: long enough for any room server that restarts to catch up.
    static let retention: Double = 86_400

    init(store: JobStore, deliver: @escaping @Sendable (RoomJobState) -> Void) {
        self.store = store
        self.deliver = deliver
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "revue.rooms.job-states"
        self.thread = thread
        thread.start()
    }

    func stop() {
        guard thread != nil else { return }
        stopped.store(true, ordering: .relaxed)
        _ = finished.wait(timeout: .now() + 5)
        thread = nil
    }

    private func run() {
        let listener = PostgresListener(connectionString: store.pool.connectionString, channels: [JobStore.roomStatesChannel], logger: logger)
        var last: Int64?
        var lastPrune = Date.distantPast
        while !stopped.load(ordering: .relaxed) {
            do {
                if last == nil {
                    // A server that starts now knows the running jobs' states for joiners, and
                    // sends only what changes from here on.
                    let start = try store.lastRoomJobStateID()
                    for state in try store.currentRoomJobStates() where state.id <= start { deliver(state) }
                    last = start
                }
                var next = last ?? 0
                while true {
                    let states = try store.roomJobStates(after: next)
                    for state in states { deliver(state) }
                    next = states.last?.id ?? next
                    if states.count < 500 { break }
                }
                last = next
                if Date().timeIntervalSince(lastPrune) > 3_600 {
                    try store.pruneRoomJobStates(olderThan: Self.retention)
                    lastPrune = Date()
                }
            } catch {
                logger.error("could not read job states for the rooms; retrying", ["error": .string("\(error)")])
            }
            _ = listener.wait(timeout: 1)
        }
    }
}

extension RoomJobState {
    /// The signalling message that carries it (docs/SIGNALING.md).
    var message: ServerMessage {
        switch kind {
        case .recording: .recordingStateChanged(status: status)
        case .hls: .hlsStateChanged(status: status, playbackHlsUrl: playbackHlsUrl, livestreamUrl: livestreamUrl)
        case .livestream: .livestreamStateChanged(status: status)
        case .transcription: .transcriptionStateChanged(status: status)
        }
    }
}
