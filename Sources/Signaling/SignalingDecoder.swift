import JobSpec

/// Reads signalling frames. It never traps on what arrives: every input gives a message or a
/// `SignalingError` that says what is wrong, carrying the request's `id` whenever the frame had
/// a readable one, so the error can answer it.
///
/// The checks, in order: size (3072), JSON object (3073), `id` (3073), `v` (3073 when missing,
/// 3068 when another version), `type` (3073 when missing, 3068 when unknown), then the fields
/// of that type (3073 naming the field).
public enum SignalingDecoder {
    /// Reads a frame a client sent.
    public static func decodeClient(_ frame: some Collection<UInt8>) -> Result<ClientEnvelope, SignalingError> {
        do throws(SignalingError) {
            let reader = try envelope(frame)
            return .success(ClientEnvelope(try ClientMessage.reading(reader), id: reader.requestID))
        } catch {
            return .failure(error)
        }
    }

    /// Reads a frame the server sent (clients, and tests, use this).
    public static func decodeServer(_ frame: some Collection<UInt8>) -> Result<ServerEnvelope, SignalingError> {
        do throws(SignalingError) {
            let reader = try envelope(frame)
            return .success(ServerEnvelope(try ServerMessage.reading(reader), id: reader.requestID))
        } catch {
            return .failure(error)
        }
    }

    /// The checks every frame passes before its type is read.
    static func envelope(_ frame: some Collection<UInt8>) throws(SignalingError) -> FieldReader {
        guard frame.count <= SignalingProtocol.maximumMessageBytes else {
            throw SignalingError(.payloadTooLarge, "a signalling message is at most \(SignalingProtocol.maximumMessageBytes) bytes, "
                                     + "not \(frame.count)")
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(frame)
        } catch {
            throw SignalingError(.invalidParameter, "the message is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw SignalingError(.invalidParameter, "the message must be a JSON object") }
        var requestID: RequestID?
        if let id = object["id"], !id.isNull {
            guard let read = RequestID(json: id) else {
                throw SignalingError(.invalidParameter, "id must be a string of 1 to \(SignalingProtocol.maximumIdentifierLength) characters "
                                         + "or a whole number")
            }
            requestID = read
        }
        guard let version = object["v"], !version.isNull else {
            throw SignalingError(.invalidParameter, "v is required: the protocol version, \(SignalingProtocol.version)", requestID: requestID)
        }
        guard version.integerValue == SignalingProtocol.version else {
            throw SignalingError(.actionNotSupported, "protocol version \(version.text.prefix(32)) is not supported; this server speaks "
                                     + "version \(SignalingProtocol.version)", requestID: requestID)
        }
        guard let type = object["type"]?.stringValue, !type.isEmpty else {
            throw SignalingError(.invalidParameter, "type is required: a string naming the message", requestID: requestID)
        }
        return FieldReader(type: type, object: object, requestID: requestID)
    }
}
