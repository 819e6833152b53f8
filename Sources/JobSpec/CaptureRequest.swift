/// A still picture of a running job's composite, asked through the API (`POST /v2/hls/capture`,
/// `/v2/recordings/capture`; docs/JOBS.md, "Captures"): the job's run writes the next picture
/// it composites, at this size and in this format, to `path`.
public struct CaptureRequest: Sendable, Codable, Equatable {
    public enum Format: String, Sendable, Codable, CaseIterable {
        case jpg
        case png
    }

    /// A UUID, lowercased: the file's name.
    public var id: String
    /// The picture's size; a side left out follows the other and the composite's shape, both
    /// left out are the composite's size.
    public var width: Int?
    public var height: Int?
    public var format: Format
    /// Seconds since 1970: requests older than `lifetime` are dropped from the job's row.
    public var requestedAt: Double
    /// Where the run writes it: set by the worker, which knows its storage; nil in the row.
    public var path: String?

    public init(id: String, width: Int?, height: Int?, format: Format, requestedAt: Double, path: String? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.format = format
        self.requestedAt = requestedAt
        self.path = path
    }

    /// The file's name in the job's captures directory.
    public var fileName: String { "\(id).\(format.rawValue)" }

    /// Where a job's captures go, relative to the storage directory.
    public static func directory(job id: String) -> String { "captures/\(id)" }

    /// How long a request stays in the row: long past the API's wait for the picture.
    public static let lifetime = 60.0
    /// The largest side a capture may ask for.
    public static let largestSide = 3840
}
