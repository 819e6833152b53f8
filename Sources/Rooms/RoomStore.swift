import APIModels
import Foundation
import JobSpec
import Postgres

/// Rooms (`/v2/rooms`).
public struct Room: Sendable, Equatable {
    public var id: String
    public var customRoomID: String?
    public var disabled: Bool
    public var webhook: RoomWebhook?
    public var autoCloseConfig: AutoCloseConfig?
    public var autoStartConfig: AutoStartConfig?
    public var createdAt: Date
    public var updatedAt: Date
    /// When the room was deactivated (`POST /v2/rooms/deactivate`, or `session-end-and-deactivate`);
    /// a deactivated room is also disabled until enabled again.
    public var deactivatedAt: Date? = nil
    /// Who may start jobs from inside the room.
    public var participantJobs: ParticipantJobs = .moderators
}

public final class RoomStore: Sendable {
    public let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    static let columns = """
        id, custom_room_id, disabled, webhook::text AS webhook, auto_close_config::text AS auto_close_config,
        auto_start_config::text AS auto_start_config, created_at, updated_at, deactivated_at, participant_jobs
        """

    /// Creates a room with a new id like `abcd-efgh-ijkl`.
    public func create(_ request: RoomRequest) throws -> Room {
        do {
            return try pool.with { connection in
                let rows = try connection.query(
                    """
                    INSERT INTO rooms (id, custom_room_id, webhook, auto_close_config, auto_start_config, participant_jobs)
                    VALUES ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6) RETURNING \(RoomStore.columns)
                    """, [RoomStore.newID(), request.customRoomID, request.webhook.map(APIJSON.text), request.autoCloseConfig.map(APIJSON.text),
                          request.autoStartConfig.map(APIJSON.text), request.participantJobs.rawValue])
                return try RoomStore.room(from: rows[0])
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            throw ServiceError.invalidParameter("a room with customRoomId \"\(request.customRoomID ?? "")\" already exists")
        }
    }

    /// A room by id, or by customRoomId when `alsoCustom`.
    public func room(_ id: String, alsoCustom: Bool = false) throws -> Room? {
        try pool.with { connection in
            try connection.query(
                "SELECT \(RoomStore.columns) FROM rooms WHERE id = $1 OR ($2 AND custom_room_id = $1) ORDER BY id = $1 DESC LIMIT 1",
                [id, alsoCustom]).first.map(RoomStore.room(from:))
        }
    }

    /// A page of rooms, newest first; only room `onlyID` when given (a token limited to it).
    public func list(page: Int, perPage: Int, onlyID: String? = nil) throws -> (rooms: [Room], total: Int) {
        try pool.with { connection in
            let total = try connection.query("SELECT count(*) AS n FROM rooms WHERE $1::text IS NULL OR id = $1", [onlyID])[0]
                .decode("n", as: Int.self)
            let rows = try connection.query(
                "SELECT \(RoomStore.columns) FROM rooms WHERE $3::text IS NULL OR id = $3 ORDER BY created_at DESC, id LIMIT $1 OFFSET $2",
                [perPage, (page - 1) * perPage, onlyID])
            return (try rows.map(RoomStore.room(from:)), total)
        }
    }

    /// `POST /v2/rooms/{roomId}` `{status}`: disables a room (nobody may join it) or enables it
    /// again, which also ends a deactivation. Nil when there is no such room.
    public func setDisabled(_ disabled: Bool, roomID: String) throws -> Room? {
        try pool.with { connection in
            try connection.query(
                """
                UPDATE rooms SET disabled = $2, deactivated_at = CASE WHEN $2 THEN deactivated_at END, updated_at = now()
                WHERE id = $1 RETURNING \(RoomStore.columns)
                """, [roomID, disabled]).first.map(RoomStore.room(from:))
        }
    }

    /// `POST /v2/rooms/deactivate`: the room is disabled and marked deactivated (the first
    /// deactivation's time is kept). Nil when there is no such room.
    public func deactivate(roomID: String) throws -> Room? {
        try pool.with { connection in
            try connection.query(
                """
                UPDATE rooms SET disabled = true, deactivated_at = coalesce(deactivated_at, now()), updated_at = now()
                WHERE id = $1 RETURNING \(RoomStore.columns)
                """, [roomID]).first.map(RoomStore.room(from:))
        }
    }

    static func room(from row: PostgresRow) throws -> Room {
        // Written only by this code from validated requests: a value it cannot read is an
        // error naming the room and column, not a room that silently has no webhook.
        func decoded<T: Decodable>(_ column: String, as type: T.Type) throws -> T? {
            guard let text = try row.decodeIfPresent(column, as: String.self) else { return nil }
            do {
                return try JSONDecoder().decode(type, from: Data(text.utf8))
            } catch {
                throw PostgresError(kind: .decodingFailed,
                                    message: "room \((try? row.decode("id", as: String.self)) ?? "?"): its \(column) is not readable: \(error)")
            }
        }
        return Room(id: try row.decode("id"), customRoomID: try row.decodeIfPresent("custom_room_id"), disabled: try row.decode("disabled"),
                    webhook: try decoded("webhook", as: RoomWebhook.self),
                    autoCloseConfig: try decoded("auto_close_config", as: AutoCloseConfig.self),
                    autoStartConfig: try decoded("auto_start_config", as: AutoStartConfig.self), createdAt: try row.decode("created_at"),
                    updatedAt: try row.decode("updated_at"), deactivatedAt: try row.decodeIfPresent("deactivated_at"),
                    participantJobs: ParticipantJobs(rawValue: try row.decode("participant_jobs", as: String.self)) ?? .moderators)
    }

    /// Three groups of four lower-case letters.
    static func newID() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<3).map { _ in String((0..<4).map { _ in letters.randomElement() ?? "a" }) }.joined(separator: "-")
    }
}
