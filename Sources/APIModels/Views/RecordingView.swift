import JobSpec
/// The platform's Recording object (docs/API.md).
public struct RecordingView: Codable, Sendable, Equatable {
    public var common: JobCommonView
    /// The transcript asked for with the job, and its files (docs/TRANSCRIPTION.md); absent when none was.
    public var transcription: TranscriptionView?
    /// The latest file that is not lost: its name, and the file.
    @NullEncoded public var fileId: String?
    @NullEncoded public var file: FileView?
    /// Every MP4 part, one per attempt that recorded something.
    public var files: [FileView]

    public init(common: JobCommonView, file: FileView?, files: [FileView]) {
        self.common = common
        fileId = file?.id
        self.file = file
        self.files = files
    }

    private enum CodingKeys: String, CodingKey { case fileId, file, files, transcription }

    public init(from decoder: any Decoder) throws {
        common = try JobCommonView(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        _fileId = try container.decode(NullEncoded<String>.self, forKey: .fileId)
        _file = try container.decode(NullEncoded<FileView>.self, forKey: .file)
        files = try container.decodeIfPresent([FileView].self, forKey: .files) ?? []
        transcription = try container.decodeIfPresent(TranscriptionView.self, forKey: .transcription)
    }

    public func encode(to encoder: any Encoder) throws {
        // The common fields and these share one JSON object.
        try common.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_fileId, forKey: .fileId)
        try container.encode(_file, forKey: .file)
        try container.encode(files, forKey: .files)
        try container.encodeIfPresent(transcription, forKey: .transcription)
    }
}
