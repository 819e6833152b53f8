import Foundation
import Postgres

/// The SDK's temporary file storage (the Room seed's `uploadBase64File` / `fetchBase64File`):
/// files a participant uploads for the others of their room, kept in PostgreSQL (`room_files`)
/// for a day, so any room server of the deployment hands them out and they survive a restart.
public final class RoomFiles: Sendable {
    /// How long a file is kept after its upload.
    public static let lifetime: TimeInterval = 24 * 3600
    /// The largest file: the HTTP server's body limit (1 MiB), which the upload's body is.
    public static let maximumBytes = 1024 * 1024
    /// What one room's files may hold at once (they expire after a day), and all rooms' together.
    public static let roomQuotaBytes = 64 << 20
    public static let roomQuotaFiles = 500
    public static let totalQuotaBytes = 1 << 30

    /// A file that would pass a quota.
    public enum QuotaExceeded: Error, Sendable, Equatable, CustomStringConvertible {
        case room
        case server

        public var description: String {
            switch self {
            case .room: "the room's files are at their quota (\(RoomFiles.roomQuotaBytes >> 20) MiB or \(RoomFiles.roomQuotaFiles) files; each is kept a day)"
            case .server: "the server's file storage is full; try again later"
            }
        }
    }

    /// A stored file.
    public struct File: Sendable, Equatable {
        public var id: UUID
        public var roomID: String
        public var name: String
        public var content: [UInt8]
        public var uploadedBy: String?
        public var expiresAt: Date
    }

    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Stores a file for `roomID`; its id. Expired files go at the same time. Throws
    /// `QuotaExceeded` when the room's or the server's files would pass their quota.
    public func store(roomID: String, name: String, content: [UInt8], uploadedBy: String?, now: Date = Date()) throws -> UUID {
        let id = UUID()
        try pool.with { connection in
            _ = try connection.query("DELETE FROM room_files WHERE expires_at < $1", [now])
            let used = try connection.query("""
                SELECT coalesce(sum(octet_length(content)) FILTER (WHERE room_id = $1), 0)::bigint AS room_bytes,
                       count(*) FILTER (WHERE room_id = $1) AS room_files, coalesce(sum(octet_length(content)), 0)::bigint AS total_bytes
                FROM room_files
                """, [roomID])[0]
            guard try used.decode("room_bytes", as: Int.self) + content.count <= Self.roomQuotaBytes,
                  try used.decode("room_files", as: Int.self) < Self.roomQuotaFiles
            else { throw QuotaExceeded.room }
            guard try used.decode("total_bytes", as: Int.self) + content.count <= Self.totalQuotaBytes else { throw QuotaExceeded.server }
            _ = try connection.query("""
                INSERT INTO room_files (id, room_id, name, content, uploaded_by, created_at, expires_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, [id, roomID, name, content, uploadedBy, now, now.addingTimeInterval(Self.lifetime)])
        }
        return id
    }

    /// The file of `id`, unless it expired or never was.
    public func file(_ id: UUID, now: Date = Date()) throws -> File? {
        try pool.with { connection in
            let rows = try connection.query("""
                SELECT room_id, name, content, uploaded_by, expires_at FROM room_files WHERE id = $1 AND expires_at >= $2
                """, [id, now])
            guard let row = rows.first else { return nil }
            return File(id: id, roomID: try row.decode("room_id"), name: try row.decode("name"),
                        content: try row.decode("content", as: PostgresBytes.self).bytes, uploadedBy: try row.decodeIfPresent("uploaded_by"),
                        expiresAt: try row.decode("expires_at"))
        }
    }

    /// Whether `name` can be a file's: 1 to 255 UTF-8 bytes, no path separator or control
    /// character, not `.` or `..` (it goes into the file's URL path as one segment).
    public static func isValidName(_ name: String) -> Bool {
        guard (1...255).contains(name.utf8.count), name != ".", name != ".." else { return false }
        return !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.properties.generalCategory == .control }
    }
}
