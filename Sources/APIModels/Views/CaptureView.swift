/// The answer to `POST /v2/hls/capture` (and `/v2/recordings/capture`): the platform's fields,
/// and Revue's signed `fileUrl`.
public struct CaptureView: Codable, Sendable, Equatable {
    public struct Meta: Codable, Sendable, Equatable {
        public var createdAt: String
        public var width: Int
        public var height: Int
        /// `jpg` or `png`.
        public var format: String

        public init(createdAt: String, width: Int, height: Int, format: String) {
            self.createdAt = createdAt
            self.width = width
            self.height = height
            self.format = format
        }
    }

    public var message: String
    public var roomId: String
    public var meta: Meta
    /// Relative to the storage directory.
    public var filePath: String
    public var fileSize: Int
    public var fileName: String
    /// A signed URL of the picture, valid `REVUE_FILE_URL_TTL`.
    public var fileUrl: String

    public init(message: String, roomId: String, meta: Meta, filePath: String, fileSize: Int, fileName: String, fileUrl: String) {
        self.message = message
        self.roomId = roomId
        self.meta = meta
        self.filePath = filePath
        self.fileSize = fileSize
        self.fileName = fileName
        self.fileUrl = fileUrl
    }
}
