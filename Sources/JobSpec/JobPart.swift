/// One output of one attempt: an MP4 file or an HLS directory.
public struct JobPart: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        case writing, complete, repaired, lost
    }

    public var attempt: Int
    public var kind: PartKind
    /// Relative to the storage directory: `recordings/<job>/part-1.mp4`, `hls/<job>/part-1`.
    public var path: String
    public var status: Status
    public var size: Int64?
    public var duration: Double?
    public var width: Int?
    public var height: Int?
    /// Where it is in the server's bucket: the object key of an uploaded MP4, or the key prefix
    /// of an uploaded per-participant recording's files (set once the upload is complete), or
    /// the key prefix an HLS part is mirrored to live. Nil: only on local disk.
    public var objectKey: String?

    public init(attempt: Int, kind: PartKind, path: String, status: Status, size: Int64? = nil, duration: Double? = nil,
                width: Int? = nil, height: Int? = nil, objectKey: String? = nil)
    {
        self.attempt = attempt
        self.kind = kind
        self.path = path
        self.status = status
        self.size = size
        self.duration = duration
        self.width = width
        self.height = height
        self.objectKey = objectKey
    }

    /// The last path component: `part-1.mp4` (the platform's `fileId`).
    public var fileName: String { String(path.split(separator: "/").last ?? "") }
}
