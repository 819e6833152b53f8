/// A live transcription job (`/v2/transcriptions`): when it ran and with which model.
public struct LiveTranscriptionView: Codable, Sendable, Equatable {
    public var common: JobCommonView
    public var start: String
    @NullEncoded public var end: String?
    public var modelId: String

    public init(common: JobCommonView, start: String, end: String?, modelId: String) {
        self.common = common
        self.start = start
        self.end = end
        self.modelId = modelId
    }

    private enum CodingKeys: String, CodingKey { case start, end, modelId }

    public init(from decoder: any Decoder) throws {
        common = try JobCommonView(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decode(String.self, forKey: .start)
        _end = try container.decode(NullEncoded<String>.self, forKey: .end)
        modelId = try container.decode(String.self, forKey: .modelId)
    }

    public func encode(to encoder: any Encoder) throws {
        try common.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(start, forKey: .start)
        try container.encode(_end, forKey: .end)
        try container.encode(modelId, forKey: .modelId)
    }
}
