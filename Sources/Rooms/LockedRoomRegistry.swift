import Foundation
import Log
import Signaling
import Synchronization

/// A `RoomRegistry` shared by threads: each call runs under one lock, writes its `persist` and
/// `webhook` actions (`SessionStore.execute`), then hands every action, in order, to `deliver`
/// (frames, closes, media commands; the written ones too, for logs), still under the lock, so
/// two calls' actions never interleave. It is also the `LiveRooms` the REST API uses.
///
/// `deliver` must not call back into this object on the same thread (the lock is not
/// recursive): a hub whose `close` reports the closed connection at once should report it from
/// its own thread (a `disconnected` for a connection the registry closed does nothing).
///
/// The room server may drive a bare `RoomRegistry` from its own thread instead; this is the
/// simple way to share one, and what the REST API tests use.
public final class LockedRoomRegistry: LiveRooms, Sendable {
    private let registry: Mutex<RoomRegistry>
    public let store: SessionStore?
    private let clock: @Sendable () -> Double
    private let deliver: @Sendable ([RoomAction]) -> Void
    private let logger = Logger(label: "rooms")

    /// `clock` gives `now` (seconds since 1970); `store` nil writes nothing.
    public init(registry: RoomRegistry = RoomRegistry(), store: SessionStore?,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                deliver: @escaping @Sendable ([RoomAction]) -> Void)
    {
        self.registry = Mutex(registry)
        self.store = store
        self.clock = clock
        self.deliver = deliver
    }

    /// Runs one registry call with the time now, and carries its actions out.
    @discardableResult
    public func perform(_ call: (inout RoomRegistry, Double) -> [RoomAction]) -> [RoomAction] {
        registry.withLock { registry in
            let actions = call(&registry, clock())
            do {
                try store?.execute(actions)
            } catch {
                // The live room goes on; the rows lag behind until the next write that succeeds.
                logger.error("could not write the room's session rows", ["error": .string("\(error)")])
            }
            if !actions.isEmpty { deliver(actions) }
            return actions
        }
    }

    /// Reads the registry under the lock.
    public func read<T>(_ body: (RoomRegistry) -> T) -> T {
        registry.withLock { body($0) }
    }

    // MARK: - LiveRooms

    public func end(roomID: String, reason: LeaveReason) -> String? {
        var ended: String?
        perform { registry, now in
            ended = registry.liveSessionID(roomID: roomID)
            return registry.endRoom(roomID: roomID, reason: reason, now: now)
        }
        return ended
    }

    public func remove(participantID: String, roomID: String, reason: LeaveReason) -> Bool {
        !perform { registry, now in registry.removeParticipant(participantID: participantID, roomID: roomID, reason: reason, now: now) }.isEmpty
    }

    public func activeParticipants(roomID: String) -> [LiveParticipant]? {
        read { registry in registry.liveSessionID(roomID: roomID) == nil ? nil : registry.activeParticipants(roomID: roomID) }
    }
}
