import Foundation
import Postgres
import Storage

/// The state of each upload in PostgreSQL (`uploads`, `upload_parts`; migrations/0005): which
/// parts of a job's files are in object storage, so the worker that takes a job over finishes
/// an upload without sending the parts another worker already stored.
public final class UploadStore: Sendable {
    public let pool: PostgresPool

    /// Where a file goes.
    public enum Target: String, Sendable {
        case bucket, presigned
    }

    /// One upload as stored.
    public struct Record: Sendable, Equatable {
        public var state: String
        public var objectKey: String?
        public var uploadID: String?
        public var partSize: Int?
        public var parts: [UploadedPart]
        public var error: String?
        public var attempts: Int
    }

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    public func record(jobID: UUID, partPath: String, target: Target) throws -> Record? {
        try pool.with { connection in
            guard let row = try connection.query(
                "SELECT state, object_key, upload_id, part_size, error, attempts FROM uploads WHERE job_id = $1 AND part_path = $2 AND target = $3",
                [jobID, partPath, target.rawValue]).first
            else { return nil }
            let uploadID = try row.decodeIfPresent("upload_id", as: String.self)
            var parts: [UploadedPart] = []
            if let uploadID {
                parts = try connection.query(
                    """
                    SELECT part_number, etag, size FROM upload_parts
                    WHERE job_id = $1 AND part_path = $2 AND target = $3 AND upload_id = $4 ORDER BY part_number
                    """, [jobID, partPath, target.rawValue, uploadID]).map {
                    UploadedPart(number: try $0.decode("part_number"), etag: try $0.decode("etag"), size: try $0.decode("size"))
                }
            }
            return Record(state: try row.decode("state"), objectKey: try row.decodeIfPresent("object_key"), uploadID: uploadID,
                          partSize: try row.decodeIfPresent("part_size"), parts: parts, error: try row.decodeIfPresent("error"),
                          attempts: try row.decode("attempts"))
        }
    }

    /// Whether a job has an upload that is neither complete nor failed (its worker died mid-upload).
    public func hasUnfinished(jobID: UUID) throws -> Bool {
        try pool.with { connection in
            !(try connection.query("SELECT 1 FROM uploads WHERE job_id = $1 AND state = 'uploading' LIMIT 1", [jobID]).isEmpty)
        }
    }

    /// A worker starts (or resumes) an upload.
    public func begin(jobID: UUID, partPath: String, target: Target, objectKey: String?, size: Int64) throws {
        try pool.with { connection in
            try connection.query(
                """
                INSERT INTO uploads (job_id, part_path, target, object_key, size, attempts) VALUES ($1, $2, $3, $4, $5, 1)
                ON CONFLICT (job_id, part_path, target) DO UPDATE
                SET state = 'uploading', error = NULL, attempts = uploads.attempts + 1, size = $5, updated_at = now()
                """, [jobID, partPath, target.rawValue, objectKey, size])
        }
    }

    func began(jobID: UUID, partPath: String, target: Target, uploadID: String, partSize: Int) throws {
        try pool.with { connection in
            try connection.query(
                "UPDATE uploads SET upload_id = $4, part_size = $5, updated_at = now() WHERE job_id = $1 AND part_path = $2 AND target = $3",
                [jobID, partPath, target.rawValue, uploadID, partSize])
        }
    }

    func partDone(jobID: UUID, partPath: String, target: Target, uploadID: String, part: UploadedPart, workerID: String) throws {
        try pool.with { connection in
            try connection.query(
                """
                INSERT INTO upload_parts (job_id, part_path, target, upload_id, part_number, etag, size, worker_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING
                """, [jobID, partPath, target.rawValue, uploadID, part.number, part.etag, part.size, workerID])
        }
    }

    public func complete(jobID: UUID, partPath: String, target: Target, etag: String) throws {
        try pool.with { connection in
            try connection.query(
                """
                UPDATE uploads SET state = 'complete', etag = $4, error = NULL, completed_at = now(), updated_at = now()
                WHERE job_id = $1 AND part_path = $2 AND target = $3
                """, [jobID, partPath, target.rawValue, etag])
        }
    }

    public func failed(jobID: UUID, partPath: String, target: Target, error: String) throws {
        try pool.with { connection in
            try connection.query(
                "UPDATE uploads SET state = 'failed', error = $4, updated_at = now() WHERE job_id = $1 AND part_path = $2 AND target = $3",
                [jobID, partPath, target.rawValue, error])
        }
    }

    /// The journal of one upload, for `ObjectUploader`.
    func journal(jobID: UUID, partPath: String, target: Target, workerID: String, resuming uploadID: String?) -> Journal {
        let journal = Journal(store: self, jobID: jobID, partPath: partPath, target: target, workerID: workerID)
        journal.uploadID = uploadID
        return journal
    }

    final class Journal: UploadJournal {
        let store: UploadStore
        let jobID: UUID
        let partPath: String
        let target: Target
        let workerID: String
        var uploadID: String?

        init(store: UploadStore, jobID: UUID, partPath: String, target: Target, workerID: String) {
            self.store = store
            self.jobID = jobID
            self.partPath = partPath
            self.target = target
            self.workerID = workerID
        }

        func began(uploadID: String, partSize: Int) throws {
            self.uploadID = uploadID
            try store.began(jobID: jobID, partPath: partPath, target: target, uploadID: uploadID, partSize: partSize)
        }

        func partDone(_ part: UploadedPart) throws {
            guard let uploadID else { return }
            try store.partDone(jobID: jobID, partPath: partPath, target: target, uploadID: uploadID, part: part, workerID: workerID)
        }
    }
}
