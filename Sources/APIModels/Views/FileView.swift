import JobSpec
/// A recording's file (`file` and each of `files`): the platform's fields plus `attempt` and
/// `status` (complete, repaired, lost, writing).
public struct FileView: Codable, Sendable, Equatable {
    public struct Meta: Codable, Sendable, Equatable {
        public struct Resolution: Codable, Sendable, Equatable {
            public var width: Int
            public var height: Int
        }

        public var format: String
        public var duration: Double
        public var resolution: Resolution
    }

    public var id: String
    public var filePath: String
    public var fileUrl: String
    public var size: Int64
    public var type: String
    public var attempt: Int
    public var status: String
    public var meta: Meta

    /// `filePath` defaults to the part's local path; an uploaded part gives its object key.
    public init(part: JobPart, filePath: String? = nil, fileURL: String) {
        id = part.fileName
        self.filePath = filePath ?? part.path
        fileUrl = fileURL
        size = part.size ?? 0
        type = "video"
        attempt = part.attempt
        status = part.status.rawValue
        meta = Meta(format: part.kind.rawValue, duration: part.duration ?? 0,
                    resolution: .init(width: part.width ?? 0, height: part.height ?? 0))
    }
}
