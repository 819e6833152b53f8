/// Realtime transcription settings (`startTranscription(config:)`), kept for the seed's shape;
/// transcription itself is not built (docs/SDK.md).
public struct TranscriptionConfig: Sendable {
    public var webhookURL: String?
    public var summary: SummaryConfig?
    public var modelConfig: [String: any Sendable]?

    public init(webhookURL: String? = nil, summary: SummaryConfig? = nil, modelConfig: [String: any Sendable]? = nil) {
        self.webhookURL = webhookURL
        self.summary = summary
        self.modelConfig = modelConfig
    }
}
