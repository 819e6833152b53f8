import Foundation

/// A start request as the API accepted it: the one shape a job has from the REST API to the
/// database (`POST /v2/recordings/start`, `/v2/hls/start`, `/v2/livestreams/start`).
public struct JobRequest: Sendable, Equatable {
    public var kind: JobKind
    public var roomID: String
    public var config: RecordingConfig
    /// Livestream destinations; empty for other kinds.
    public var outputs: [LivestreamOutput]
    public var webhookURL: String?
    /// The object key prefix in the server's bucket: the recording goes to `bucket/awsDirPath/<file name>`.
    public var awsDirPath: String?
    /// A presigned S3 PUT URL the recording is uploaded to when it finishes (a capability: never echoed).
    public var preSignedURL: String?
    /// A transcript of the job's speech when it stops (recordings and HLS).
    public var transcription: TranscriptionRequest?

    public init(kind: JobKind, roomID: String, config: RecordingConfig = RecordingConfig(), outputs: [LivestreamOutput] = [],
                webhookURL: String? = nil, awsDirPath: String? = nil, preSignedURL: String? = nil)
    {
        self.kind = kind
        self.roomID = roomID
        self.config = config
        self.outputs = outputs
        self.webhookURL = webhookURL
        self.awsDirPath = awsDirPath
        self.preSignedURL = preSignedURL
    }

    /// The URLs the caller chose to send the job's media or events to: livestream servers
    /// (without their keys), `webhookUrl`, `preSignedUrl`.
    public var destinations: [String] {
        outputs.map(\.url) + [webhookURL, preSignedURL].compactMap { $0 }
    }

    /// Validates a request body. Errors name the field; their category picks the error code.
    public init(validating body: JSONValue, kind: JobKind) throws(SpecError) {
        guard body.objectValue != nil else { throw SpecError("the body must be a JSON object") }
        guard let roomID = body["roomId"]?.stringValue, !roomID.isEmpty else { throw SpecError("roomId is required") }
        guard RoomID.isPlausible(roomID) else { throw SpecError("there is no room \"\(roomID)\"", category: .roomID) }
        self.init(kind: kind, roomID: roomID, config: try RecordingConfig(validating: body["config"], kind: kind))
        if kind == .livestream {
            guard let list = body["outputs"]?.arrayValue, !list.isEmpty else {
                throw SpecError("outputs must be a non-empty list of {url, streamKey}", category: .livestreamConfig)
            }
            // Each output is a connection and a queue in the job's process.
            guard list.count <= LivestreamOutput.maximumCount else {
                throw SpecError("outputs holds at most \(LivestreamOutput.maximumCount) destinations, not \(list.count)", category: .livestreamConfig)
            }
            for (index, entry) in list.enumerated() {
                outputs.append(try LivestreamOutput.validated(entry, index: index))
            }
        }
        if kind == .transcription {
            // A live transcription's settings are the body's own members (`modelId`,
            // `modelConfig`, `summary`), as the SDK's TranscriptionConfig has them.
            var settings = body.objectValue?.filter { ["modelId", "modelConfig", "summary"].contains($0.key) } ?? [:]
            settings["enabled"] = .bool(true)
            transcription = try TranscriptionRequest.validated(.object(settings))
        } else if let transcription = try TranscriptionRequest.validated(body["transcription"]) {
            guard kind != .livestream else { throw SpecError("transcription is for recordings and HLS, not livestreams", category: .livestreamConfig) }
            self.transcription = transcription
        }
        if let url = body["webhookUrl"], !url.isNull {
            guard let text = url.stringValue, let parsed = URL(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                  !(parsed.host ?? "").isEmpty
            else { throw SpecError("webhookUrl must be an http:// or https:// URL with a host") }
            webhookURL = text
        }
        if let path = body["awsDirPath"], !path.isNull {
            guard let text = path.stringValue else { throw SpecError("awsDirPath must be a string") }
            awsDirPath = text
            if !text.isEmpty {
                let segments = text.split(separator: "/", omittingEmptySubsequences: false)
                guard text.utf8.count <= 512, !segments.contains(where: { $0 == "." || $0 == ".." }),
                      !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" })
                else { throw SpecError("awsDirPath must be an object key prefix: at most 512 bytes, no '.' or '..' segments, no control characters") }
            }
        }
        if let url = body["preSignedUrl"], !url.isNull {
            guard let text = url.stringValue, let parsed = URL(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                  !(parsed.host ?? "").isEmpty
            else { throw SpecError("preSignedUrl must be an http:// or https:// URL with a host (a presigned S3 PUT URL)") }
            preSignedURL = text
        }
        if config.mode == .tracks, preSignedURL != nil {
            // One presigned URL takes one file: refused rather than ignored (docs/OUTPUTS.md).
            throw SpecError("preSignedUrl takes one file; config.mode \"tracks\" writes one per track")
        }
    }
}
