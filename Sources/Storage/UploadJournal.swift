/// Where an upload's progress is kept so that another process can finish it: the worker keeps
/// it in PostgreSQL (`uploads`, `upload_parts`), so a worker killed mid-upload leaves the upload
/// id and the parts done for the job's next holder.
public protocol UploadJournal: AnyObject {
    /// A new multipart upload began (any parts recorded for an earlier one are forgotten).
    func began(uploadID: String, partSize: Int) throws
    /// A part is stored and its ETag checked.
    func partDone(_ part: UploadedPart) throws
}

/// One part of a multipart upload that the server has stored.
public struct UploadedPart: Sendable, Equatable, Codable {
    public var number: Int
    public var etag: String
    public var size: Int64

    public init(number: Int, etag: String, size: Int64) {
        self.number = number
        self.etag = etag
        self.size = size
    }
}

/// What an earlier attempt left: the upload id and the parts done.
public struct MultipartProgress: Sendable, Equatable {
    public var uploadID: String
    public var partSize: Int
    public var parts: [UploadedPart]

    public init(uploadID: String, partSize: Int, parts: [UploadedPart]) {
        self.uploadID = uploadID
        self.partSize = partSize
        self.parts = parts
    }
}

/// A finished upload.
public struct UploadedObject: Sendable, Equatable {
    public var key: String
    public var size: Int64
    public var etag: String
    /// How many parts the object has (1 for a single PUT).
    public var parts: Int
    /// How many parts this call sent (fewer than `parts` when it resumed an upload).
    public var partsSent: Int
}
