import JobSpec
/// A room's `autoStartConfig`: the jobs to start when a session starts.
public struct AutoStartConfig: Sendable, Codable, Equatable {
    public struct Recording: Sendable, Codable, Equatable {
        public var config: RecordingConfig
        public var awsDirPath: String?

        public init(config: RecordingConfig = RecordingConfig(), awsDirPath: String? = nil) {
            self.config = config
            self.awsDirPath = awsDirPath
        }
    }

    public struct HLS: Sendable, Codable, Equatable {
        public var config: RecordingConfig

        public init(config: RecordingConfig = RecordingConfig()) {
            self.config = config
        }
    }

    public var recording: Recording?
    public var hls: HLS?

    public init(recording: Recording? = nil, hls: HLS? = nil) {
        self.recording = recording
        self.hls = hls
    }

    static func validated(_ value: JSONValue) throws(SpecError) -> AutoStartConfig {
        guard value.objectValue != nil else { throw SpecError("autoStartConfig must be an object {recording, hls}") }
        var config = AutoStartConfig()
        if let recording = value["recording"], !recording.isNull {
            guard recording.objectValue != nil else { throw SpecError("autoStartConfig.recording must be an object") }
            var made = Recording()
            do {
                made.config = try RecordingConfig(validating: recording["config"], kind: .recording)
            } catch {
                throw SpecError("autoStartConfig.recording.\(error.message)")
            }
            if let path = recording["awsDirPath"], !path.isNull {
                guard let text = path.stringValue else { throw SpecError("autoStartConfig.recording.awsDirPath must be a string") }
                made.awsDirPath = text
            }
            config.recording = made
        }
        if let hls = value["hls"], !hls.isNull {
            guard hls.objectValue != nil else { throw SpecError("autoStartConfig.hls must be an object") }
            do {
                config.hls = HLS(config: try RecordingConfig(validating: hls["config"], kind: .hls))
            } catch {
                throw SpecError("autoStartConfig.hls.\(error.message)")
            }
        }
        return config
    }
}
