import JobSpec

/// One server frame: the message and, for a reply, the `id` of the request it answers.
public struct ServerEnvelope: Sendable, Hashable {
    public var id: RequestID?
    public var message: ServerMessage

    public init(_ message: ServerMessage, id: RequestID? = nil) {
        self.message = message
        self.id = id
    }

    /// A refusal, answering the request the error names.
    public init(error: SignalingError) {
        self.init(ServerMessage(error), id: error.requestID)
    }

    /// The frame as a JSON object, with `v` and `type`.
    public var json: JSONValue {
        var fields = message.fields
        fields["v"] = .number(Double(SignalingProtocol.version))
        fields["type"] = .string(message.type)
        if let id { fields["id"] = id.json }
        return .object(fields)
    }

    /// The text of the WebSocket frame (compact JSON, sorted keys).
    public var text: String { json.text }

    /// Reads a server frame (`SignalingDecoder.decodeServer`).
    public init(text: String) throws(SignalingError) {
        self = try SignalingDecoder.decodeServer(Array(text.utf8)).get()
    }
}
