import Foundation
import Log
import Postgres
import Rooms

/// What the registry records and announces, done off the media thread: sessions, participants
/// and their time logs into PostgreSQL, and the room webhooks into the outbox (`SessionStore`).
/// A serial queue, so the order of events is kept; one registry call's rows go in one transaction.
final class RoomPersistence: Sendable {
    private let queue = DispatchQueue(label: "revue.rooms.persistence")
    let store: SessionStore
    private let logger = Logger(label: "rooms")

    init(pool: PostgresPool, nodeID: String? = nil) {
        store = SessionStore(pool: pool, nodeID: nodeID)
    }

    /// Records the `.persist` and `.webhook` actions of one registry call.
    func execute(_ actions: [RoomAction]) {
        guard !actions.isEmpty else { return }
        queue.async { [self] in
            do {
                try store.execute(actions)
            } catch {
                logger.error("could not record a room change", ["actions": .of(actions.count), "error": .string("\(error)")])
            }
        }
    }

    /// Runs `work` after what was queued before it (a job started when a session starts needs
    /// the session's row).
    func then(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Waits for what was queued.
    func drain() {
        queue.sync {}
    }
}
