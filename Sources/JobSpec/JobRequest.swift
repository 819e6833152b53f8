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
    public var awsDirPath: String?

    public init(kind: JobKind, roomID: String, config: RecordingConfig = RecordingConfig(), outputs: [LivestreamOutput] = [],
                webhookURL: String? = nil, awsDirPath: String? = nil)
    {
        self.kind = kind
        self.roomID = roomID
        self.config = config
        self.outputs = outputs
        self.webhookURL = webhookURL
        self.awsDirPath = awsDirPath
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
            for (index, entry) in list.enumerated() {
                outputs.append(try LivestreamOutput.validated(entry, index: index))
            }
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
        }
    }
}
