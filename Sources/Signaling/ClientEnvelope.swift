import JobSpec

/// One client frame: the message and the request `id` its reply will carry.
public struct ClientEnvelope: Sendable, Hashable {
    public var id: RequestID?
    public var message: ClientMessage

    public init(_ message: ClientMessage, id: RequestID? = nil) {
        self.message = message
        self.id = id
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

    /// Reads a client frame (`SignalingDecoder.decodeClient`).
    public init(text: String) throws(SignalingError) {
        self = try SignalingDecoder.decodeClient(Array(text.utf8)).get()
    }
}
