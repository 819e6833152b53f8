import Crypto

/// The resume keys of members whose connection was lost (docs/SIGNALING.md "Reconnecting"), by
/// room and participant, for `RoomRegistry.resumeWindow`: one that comes back with its key in
/// that time is let in again without asking for entry, as it was admitted already. Kept apart
/// from the rooms, so a member who was alone in its room (whose session ended with it) still
/// comes back as admitted.
struct LostMemberships: Sendable {
    private struct Key: Hashable, Sendable {
        var roomID: String
        var participantID: String
    }

    private struct Entry: Sendable {
        var resumeKey: String
        var lostAt: Double
    }

    private var entries: [Key: Entry] = [:]

    /// A member with `resumeKey` lost its connection at `now`.
    mutating func lost(roomID: String, participantID: String, resumeKey: String, now: Double) {
        prune(now: now)
        entries[Key(roomID: roomID, participantID: participantID)] = Entry(resumeKey: resumeKey, lostAt: now)
    }

    /// Whether a join with `key` is that member back within the window; a match is used up.
    mutating func takeBack(roomID: String, participantID: String, key: String, now: Double) -> Bool {
        prune(now: now)
        let id = Key(roomID: roomID, participantID: participantID)
        guard let entry = entries[id], Self.matches(entry.resumeKey, key) else { return false }
        entries[id] = nil
        return true
    }

    private mutating func prune(now: Double) {
        entries = entries.filter { now - $0.value.lostAt <= RoomRegistry.resumeWindow }
    }

    /// Compared in constant time: the key is the one secret that lets a connection take a
    /// member's place.
    static func matches(_ held: String, _ given: String) -> Bool {
        HMACSHA256.constantTimeEqual(Array(held.utf8), Array(given.utf8))
    }
}
