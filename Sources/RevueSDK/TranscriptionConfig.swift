import Foundation
import JobSpec

/// Realtime transcription settings (`startTranscription(config:)`), in the seed's shape.
/// `modelConfig` takes what the seed takes, `[String: Any]`; it is kept as JSON (the config is
/// `Sendable`), so reading it back gives its JSON form, and a value that is not JSON is kept as
/// the reason `startTranscription` refuses it (3073).
public struct TranscriptionConfig: Sendable {
    public var webhookURL: String?
    public var summary: SummaryConfig?
    /// What `modelConfig` was converted to.
    enum ModelSettings: Sendable, Equatable {
        case json(JSONValue)
        case notJSON(String)
    }
    private(set) var modelSettings: ModelSettings?

    /// Model settings: "use only values that can be converted to JSON".
    public var modelConfig: [String: Any]? {
        get {
            guard case .json(let value)? = modelSettings else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(value.text.utf8))) as? [String: Any]
        }
        set { modelSettings = newValue.map(Self.convert) }
    }

    public init(webhookURL: String? = nil, summary: SummaryConfig? = nil, modelConfig: [String: Any]? = nil) {
        self.webhookURL = webhookURL
        self.summary = summary
        modelSettings = modelConfig.map(Self.convert)
    }

    /// A dictionary as JSON, or why it is not JSON.
    static func convert(_ dictionary: [String: Any]) -> ModelSettings {
        guard JSONSerialization.isValidJSONObject(dictionary), let data = try? JSONSerialization.data(withJSONObject: dictionary),
              let value = try? JSONValue(parsing: Array(data))
        else { return .notJSON("holds a value that cannot be converted to JSON (strings, numbers, booleans, null, arrays and objects only)") }
        return .json(value)
    }
}
