import APIModels
import Foundation
import Jobs
import JobSpec
import Postgres
import Rooms

/// `revue rooms list|show`: rooms, their live session and who is in it, from the database.
enum RoomsListCommand: RevueCommand {
    static let spec = CommandSpec(
        ["rooms", "list"], summary: "List rooms, newest first, with their ongoing session and how many are in it.",
        options: CommonOptions.database + [OptionSpec("limit", value: "N", help: "How many.", default: "20")] + CommonOptions.logging)

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let limit = try arguments.integer("limit", in: 1...1000) ?? 20
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let pool = PostgresPool(database.connectionString, size: 1)
        let (rooms, total) = try RoomStore(pool: pool).list(page: 1, perPage: limit)
        let sessions = SessionStore(pool: pool)
        Console.print(RoomTable.header)
        for room in rooms { Console.print(RoomTable.row(room, session: try sessions.ongoingSession(roomID: room.id))) }
        Console.print("\(rooms.count) of \(total) rooms")
        return 0
    }
}

enum RoomsShowCommand: RevueCommand {
    static let spec = CommandSpec(
        ["rooms", "show"], summary: "Show one room: its settings, its ongoing session with the participants in it, and its last sessions.",
        options: CommonOptions.database + [OptionSpec("sessions", value: "N", help: "How many past sessions.", default: "5")]
            + CommonOptions.logging,
        positionals: [PositionalSpec("ROOM", help: "The room id or its customRoomId.")])

    static func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let id = arguments.positional(0) else { throw UsageError("ROOM is required", command: spec.name) }
        let count = try arguments.integer("sessions", in: 1...100) ?? 5
        let database = try ServiceSetup.database(arguments)
        defer { database.close() }
        let pool = PostgresPool(database.connectionString, size: 1)
        guard let room = try RoomStore(pool: pool).room(id, alsoCustom: true) else {
            Console.error("error: no room \(id)")
            return 1
        }
        let sessions = SessionStore(pool: pool)
        let recent = try sessions.sessions(roomID: room.id, page: 1, perPage: count)
        for line in RoomTable.details(room, ongoing: try sessions.ongoingSession(roomID: room.id), recent: recent.sessions, total: recent.total) {
            Console.print(line)
        }
        return 0
    }
}

/// The text of `revue rooms` (pure, so tests read it).
enum RoomTable {
    static let header = "ROOM            CUSTOM ID        STATUS       SESSION                   IN  CREATED"

    static func status(_ room: Room) -> String {
        room.deactivatedAt != nil ? "deactivated" : room.disabled ? "disabled" : "enabled"
    }

    static func row(_ room: Room, session: Session?) -> String {
        [
            JobTable.pad(room.id, 15), JobTable.pad(room.customRoomID ?? "-", 16), JobTable.pad(status(room), 12),
            JobTable.pad(session?.id ?? "-", 25), JobTable.pad(String(session?.activeParticipants.count ?? 0), 3),
            APITime.string(room.createdAt),
        ].joined(separator: " ")
    }

    static func details(_ room: Room, ongoing: Session?, recent: [Session], total: Int) -> [String] {
        var lines = ["room \(room.id)" + (room.customRoomID.map { " (\($0))" } ?? "") + " \(status(room)), created \(APITime.string(room.createdAt))"]
        if let at = room.deactivatedAt { lines.append("  deactivated \(APITime.string(at))") }
        if let webhook = room.webhook {
            lines.append("  webhook \(webhook.endPoint) " + (webhook.events.isEmpty ? "(every event)" : webhook.events.joined(separator: ", ")))
        }
        if let close = room.autoCloseConfig { lines.append("  autoCloseConfig \(close.type.rawValue), \(close.duration) min") }
        if let session = ongoing {
            let active = session.activeParticipants
            lines.append("  live session \(session.id) since \(APITime.string(session.startedAt)), \(active.count) in:")
            for participant in active {
                let since = participant.stays.last.map { APITime.string($0.start) } ?? "-"
                lines.append("    \(JobTable.pad(participant.participantID, 20)) \(JobTable.pad(participant.name, 24)) since \(since)"
                    + (participant.stays.count > 1 ? " (stay \(participant.stays.count))" : ""))
            }
        } else {
            lines.append("  no live session")
        }
        lines.append("  sessions (\(recent.count) of \(total)):")
        for session in recent {
            lines.append("    \(JobTable.pad(session.id, 25)) \(APITime.string(session.startedAt)) → "
                + (session.endedAt.map(APITime.string) ?? "ongoing                 ") + "  \(session.participants.count) participants")
        }
        return lines
    }
}
